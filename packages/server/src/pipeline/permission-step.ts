/**
 * Pipeline step 2: does the caller's role hold the tool's permission.
 *
 * @packageDocumentation
 */
import { permissionDenied } from '@recourse/core';
import type { PermissionPolicy, Principal, ToolDefinition } from '../contract.ts';
import type { ResolvedGuidance } from './refusal-guidance.ts';

/**
 * Passes when the server has no policy, the tool names no permission, or the caller's role holds it; otherwise
 * refuses, naming the permission, the role held (`none` for a caller without a role) and the roles that hold
 * it, with `guidance.role` as the next step. Failure: `permission` / `PERMISSION_DENIED`.
 */
export function checkPermission(
  principal: Principal,
  tool: ToolDefinition,
  policy: PermissionPolicy | undefined,
  guidance: ResolvedGuidance,
): void {
  if (policy === undefined || tool.permission === undefined) return;
  if (principal.role !== undefined && policy.allows(principal.role, tool.permission)) return;
  const grantedTo = [...policy.rolesGranting(tool.permission)];
  throw permissionDenied({
    tool: tool.name,
    permission: tool.permission,
    role: principal.role ?? 'none',
    grantedTo,
    message: `${guidance.caller(principal)} may not call ${tool.name}.`,
    next:
      grantedTo.length > 0
        ? guidance.role
        : 'No role can call this tool on this server; leave this step out of your plan.',
  });
}
