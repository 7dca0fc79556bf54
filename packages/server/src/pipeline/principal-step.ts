/**
 * Pipeline step 1: who is calling, checked again on every call of a long-lived (stdio) connection.
 *
 * @packageDocumentation
 */
import { ToolFailure } from '@recourse/core';
import { ANONYMOUS_PRINCIPAL } from '../contract.ts';
import type { Principal, PrincipalRecheck, TokenRefusal, TransportLeg } from '../contract.ts';
import type { ResolvedGuidance } from './refusal-guidance.ts';

/**
 * Returns the caller. Without one (a host with no authentication passes none or {@link ANONYMOUS_PRINCIPAL}),
 * returns {@link ANONYMOUS_PRINCIPAL}, unless the tool's permission has to be checked (`needsIdentity`): then the
 * call is refused.
 * Failure: `permission` / `NO_IDENTITY`.
 */
export function requirePrincipal(
  principal: Principal | undefined,
  tool: string,
  needsIdentity: boolean,
  guidance: ResolvedGuidance,
): Principal {
  if (principal !== undefined && principal !== ANONYMOUS_PRINCIPAL) return principal;
  if (!needsIdentity) return ANONYMOUS_PRINCIPAL;
  throw new ToolFailure({
    category: 'permission',
    code: 'NO_IDENTITY',
    message: `The call to ${tool} came with no caller identity, so its permission could not be checked.`,
    expected:
      'a call made with a credential (a bearer token over HTTP, or the configured identity over stdio)',
    next: guidance.credential,
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
function credentialRefused(
  principal: Principal,
  tool: string,
  reason: TokenRefusal,
  guidance: ResolvedGuidance,
): ToolFailure {
  const credential = principal.credentialId === undefined ? '' : ` (${principal.credentialId})`;
  const whose =
    principal.refused === undefined ? ` for ${principal.id}` : ', so the server does not know who is calling';
  return new ToolFailure({
    category: 'permission',
    code: 'CREDENTIAL_REFUSED',
    message:
      principal.refused === undefined
        ? `The call to ${tool} was refused: the credential${credential} this connection was started with${whose} ${REFUSAL_WORDS[reason]}.`
        : `The call to ${tool} was refused: the credential this connection was started with ${REFUSAL_WORDS[reason]}${whose}.`,
    expected: 'an active credential, checked again on every call',
    next: guidance.credential,
    retryable: false,
    changed: false,
  });
}

/**
 * Checks the caller again for this call when the connection is long-lived: on the `stdio` leg with a `recheck`
 * hook, returns the principal as the hook sees it now (so a changed role applies to this call); on HTTP legs
 * (the host verified the token for this request) or without a hook, returns `principal` unchanged.
 * Failure: `permission` / `CREDENTIAL_REFUSED` (not retryable, nothing changed) when the credential was revoked,
 * expired or is unknown, or the caller it names was removed, and on every call of a principal marked `refused`
 * (a connection whose credential was refused at start). A hook that rejects fails the call as `internal`.
 */
export async function recheckPrincipal(
  principal: Principal,
  tool: string,
  transport: TransportLeg,
  recheck: PrincipalRecheck | undefined,
  guidance: ResolvedGuidance,
): Promise<Principal> {
  if (principal.refused !== undefined) throw credentialRefused(principal, tool, principal.refused, guidance);
  if (recheck === undefined || transport !== 'stdio' || principal === ANONYMOUS_PRINCIPAL) return principal;
  const answer = await recheck(principal);
  if ('refused' in answer) throw credentialRefused(principal, tool, answer.refused, guidance);
  return answer;
}
