/**
 * Pipeline step 2: does the caller's role hold the tool's permission.
 *
 * @packageDocumentation
 */
import { permissionDenied } from '@recourse/core';
import type { PermissionPolicy, Principal, ToolDefinition } from '../contract.ts';

/**
 * Passes when the caller's role holds the tool's permission; otherwise refuses, naming the permission, the role
 * held and the roles that hold it. Failure: `permission` / `PERMISSION_DENIED`.
 */
export function checkPermission(principal: Principal, tool: ToolDefinition, policy: PermissionPolicy): void {
  if (policy.allows(principal.role, tool.permission)) return;
  const grantedTo = [...policy.rolesGranting(tool.permission)];
  throw permissionDenied({
    tool: tool.name,
    permission: tool.permission,
    role: principal.role,
    grantedTo,
    message: `Member ${principal.name} (${principal.memberId}) may not call ${tool.name}.`,
    next:
      grantedTo.length > 0
        ? 'Ask a board owner for a role that holds it, or leave this step to a member who holds one.'
        : 'No role can call this tool on this server; leave this step out of your plan.',
  });
}
