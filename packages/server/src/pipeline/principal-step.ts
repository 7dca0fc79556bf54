/**
 * Pipeline step 1: who is calling.
 *
 * @packageDocumentation
 */
import { ToolFailure } from '@recourse/core';
import type { Principal } from '../contract.ts';

/**
 * Returns the caller, or refuses the call when the host passed no member identity.
 * Failure: `permission` / `NO_MEMBER_IDENTITY`.
 */
export function requirePrincipal(principal: Principal | undefined, tool: string): Principal {
  if (principal !== undefined) return principal;
  throw new ToolFailure({
    category: 'permission',
    code: 'NO_MEMBER_IDENTITY',
    message: `The call to ${tool} came with no member identity, so no permission could be checked.`,
    expected:
      'a call made as a member of the board (a bearer token over HTTP, or the configured member over stdio)',
    next: 'Connect again with a member token; a board owner can issue one.',
    retryable: false,
    changed: false,
  });
}
