/**
 * Pipeline step 1: who is calling, checked again on every call of a long-lived (stdio) connection.
 *
 * @packageDocumentation
 */
import { ToolFailure } from '@recourse/core';
import type { Principal, PrincipalRecheck, TokenRefusal, TransportLeg } from '../contract.ts';

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

const REFUSAL_WORDS: Readonly<Record<TokenRefusal, string>> = {
  missing: 'is missing',
  unknown: 'is no longer known to the server',
  revoked: 'was revoked',
  expired: 'has expired',
};

/** The refusal of a call whose connection's credential no longer holds; never names the token itself. */
function credentialRefused(principal: Principal, tool: string, reason: TokenRefusal): ToolFailure {
  const credential = principal.credentialId === undefined ? '' : ` (${principal.credentialId})`;
  const whose =
    principal.refused === undefined
      ? ` for member ${principal.memberId}`
      : ', so the server does not know who is calling';
  return new ToolFailure({
    category: 'permission',
    code: 'CREDENTIAL_REFUSED',
    message:
      principal.refused === undefined
        ? `The call to ${tool} was refused: the credential${credential} this connection was started with${whose} ${REFUSAL_WORDS[reason]}.`
        : `The call to ${tool} was refused: the credential this connection was started with ${REFUSAL_WORDS[reason]}${whose}.`,
    expected: 'an active credential of an active member, checked again on every call',
    next: 'Ask a board owner for a new token and restart the client with it.',
    retryable: false,
    changed: false,
  });
}

/**
 * Checks the caller again for this call when the connection is long-lived: on the `stdio` leg with a `recheck`
 * hook, returns the principal as the hook sees it now (so a changed role applies to this call); on HTTP legs
 * (the host verified the token for this request) or without a hook, returns `principal` unchanged.
 * Failure: `permission` / `CREDENTIAL_REFUSED` (not retryable, nothing changed) when the credential was revoked,
 * expired or is unknown, or its member was revoked, and on every call of a principal marked `refused` (a
 * connection whose credential was refused at start). A hook that rejects fails the call as `internal`.
 */
export async function recheckPrincipal(
  principal: Principal,
  tool: string,
  transport: TransportLeg,
  recheck: PrincipalRecheck | undefined,
): Promise<Principal> {
  if (principal.refused !== undefined) throw credentialRefused(principal, tool, principal.refused);
  if (recheck === undefined || transport !== 'stdio') return principal;
  const answer = await recheck(principal);
  if ('refused' in answer) throw credentialRefused(principal, tool, answer.refused);
  return answer;
}
