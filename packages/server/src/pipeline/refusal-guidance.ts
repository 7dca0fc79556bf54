/**
 * What the pipeline's refusals tell a caller to do next, and how they name the caller: server options with
 * neutral defaults, so that a refusal speaks the language of the server it comes from.
 *
 * @packageDocumentation
 */
import type { Principal } from '../contract.ts';

/** How refusals name the caller and whom they send it to; every field is optional. */
export interface RefusalGuidance {
  /** How a refusal names the caller (default: `The caller Ada (u_1)`, or `The caller u_1` without a name). */
  readonly caller?: (principal: Principal) => string;
  /**
   * The next step when the caller's role lacks a tool's permission (default: ask whoever administers this
   * server for a role that holds it, or leave the step to a caller who holds one).
   */
  readonly role?: string;
  /**
   * The next step when a call came without an identity or its credential no longer holds (default: ask whoever
   * administers this server for a new credential and connect again with it).
   */
  readonly credential?: string;
  /**
   * The next step when one call costs more than the caller's whole rate limit (default: ask whoever administers
   * this server to raise the limit; waiting will not make room).
   */
  readonly limit?: string;
}

/** {@link RefusalGuidance} with every default filled in. */
export type ResolvedGuidance = Required<RefusalGuidance>;

/** The default of {@link RefusalGuidance.caller}. */
export function defaultCallerName(principal: Principal): string {
  return principal.name === undefined
    ? `The caller ${principal.id}`
    : `The caller ${principal.name} (${principal.id})`;
}

/** Fills in the defaults of {@link RefusalGuidance}. */
export function resolveGuidance(guidance: RefusalGuidance = {}): ResolvedGuidance {
  return {
    caller: guidance.caller ?? defaultCallerName,
    role:
      guidance.role ??
      'Ask whoever administers this server for a role that holds it, or leave this step to a caller who holds one.',
    credential:
      guidance.credential ??
      'Ask whoever administers this server for a new credential and connect again with it.',
    limit:
      guidance.limit ??
      'Ask whoever administers this server to raise your limit; waiting will not make room for this call.',
  };
}
