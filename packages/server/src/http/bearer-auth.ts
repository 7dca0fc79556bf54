/**
 * Bearer authentication for the HTTP host: the token is read from `Authorization`, checked by the
 * injected {@link TokenVerifier}, and a refusal becomes HTTP 401 with an RFC 6750 challenge.
 *
 * @packageDocumentation
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Principal, TokenRefusal, TokenVerifier } from '../contract.ts';
import { HOST_REFUSAL_CODES } from './refusal-codes.ts';
import { NOTHING_CHANGED, clip, type HttpRefusal } from './http-refusal.ts';

/** Default advice on getting a token, used in 401 messages. */
export const DEFAULT_TOKEN_HINT = "Ask the server's operator for a new token";

/** What a 401 needs besides the reason: where the metadata lives and how to get a token. */
export interface BearerChallenge {
  /** Absolute URL of the RFC 9728 protected-resource metadata document. */
  readonly resourceMetadataUrl: string;
  /** A clause telling the caller how to obtain a token, e.g. "Ask the board owner for a new token (recourse-board tokens create)". */
  readonly tokenHint: string;
}

/** The outcome of authenticating one request. `error` is set when the verifier itself failed (503). */
export type AuthOutcome =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly refusal: HttpRefusal; readonly error?: unknown };

const DESCRIPTIONS: Record<TokenRefusal | 'malformed', string> = {
  missing: 'No bearer token was sent',
  malformed: 'The Authorization header does not carry a Bearer token',
  unknown: 'The bearer token is not known to this server',
  revoked: 'The bearer token was revoked',
  expired: 'The bearer token has expired',
};

/**
 * Schemes of the IANA HTTP Authentication Scheme Registry (plus NTLM), lower-cased: a refusal names a scheme
 * sent instead of Bearer only when it is one of these, since a header without a scheme starts with the
 * credential itself.
 */
const KNOWN_SCHEMES: ReadonlySet<string> = new Set([
  'basic',
  'concealed',
  'digest',
  'dpop',
  'gnap',
  'hoba',
  'mutual',
  'negotiate',
  'ntlm',
  'oauth',
  'privatetoken',
  'scram-sha-1',
  'scram-sha-256',
  'vapid',
]);

/**
 * What the verifier said about a request's credential, before it is turned into an answer: accepted with its
 * principal, refused with a reason (`scheme` is set when the header did not carry a Bearer token), or not
 * judged because the verifier threw.
 */
export type BearerVerdict =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly reason: TokenRefusal; readonly scheme?: string }
  | { readonly ok: false; readonly error: unknown };

/**
 * Checks the `Authorization: Bearer <token>` header of a request with `verifier`, without building an answer:
 * the HTTP host calls it once, early (the flood guard counts an accepted credential under its principal), and
 * turns the verdict into a refusal later with {@link answerVerdict}.
 */
export async function verifyBearer(
  headers: IncomingHttpHeaders,
  verifier: TokenVerifier,
): Promise<BearerVerdict> {
  const header = headers.authorization;
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing' };
  const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header);
  const token = match?.[1];
  if (token === undefined) {
    const scheme = header.trim().split(/\s+/)[0] ?? '';
    return { ok: false, reason: 'missing', scheme: KNOWN_SCHEMES.has(scheme.toLowerCase()) ? scheme : '' };
  }
  try {
    const verdict = await verifier.verify(token);
    return verdict.ok ? { ok: true, principal: verdict.principal } : { ok: false, reason: verdict.reason };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Turns a {@link BearerVerdict} into the outcome of authentication: the principal, a 401 or the 503. */
export function answerVerdict(verdict: BearerVerdict, challenge: BearerChallenge): AuthOutcome {
  if (verdict.ok) return verdict;
  if ('error' in verdict) return { ok: false, error: verdict.error, refusal: verifierDown() };
  return { ok: false, refusal: unauthorized(verdict.reason, challenge, verdict.scheme) };
}

/**
 * Authenticates a request by its `Authorization: Bearer <token>` header. A missing, malformed, unknown,
 * revoked or expired token is refused with HTTP 401 (-31401, `data.reason`), a verifier that throws with
 * HTTP 503 (-31503, `Retry-After: 5`). The token never appears in a refusal.
 */
export async function authenticate(
  headers: IncomingHttpHeaders,
  verifier: TokenVerifier,
  challenge: BearerChallenge,
): Promise<AuthOutcome> {
  return answerVerdict(await verifyBearer(headers, verifier), challenge);
}

/**
 * Builds the 401 refusal for `reason`; `scheme` names a non-Bearer scheme that was sent instead and is shown
 * (clipped to 20 characters), so it must never be a credential; `''` says the header had no known scheme.
 */
export function unauthorized(reason: TokenRefusal, challenge: BearerChallenge, scheme?: string): HttpRefusal {
  const description = DESCRIPTIONS[scheme === undefined ? reason : 'malformed'];
  const what =
    scheme === undefined
      ? `${description}.`
      : scheme === ''
        ? `${description} (it does not start with a known scheme; the value sent is not shown).`
        : `${description} (the scheme sent was "${clip(scheme, 20)}"; the credential is not shown).`;
  const retry =
    reason === 'missing'
      ? 'retrying without a token will be refused again'
      : 'retrying with the same token will be refused again';
  return {
    status: 401,
    code: HOST_REFUSAL_CODES.Unauthorized,
    reason: `auth:${reason}`,
    headers: {
      // RFC 6750 §3.1: a request that sent no credentials gets a challenge without an error code.
      'www-authenticate':
        reason === 'missing' && scheme === undefined
          ? `Bearer resource_metadata="${challenge.resourceMetadataUrl}"`
          : `Bearer error="invalid_token", error_description="${description}", ` +
            `resource_metadata="${challenge.resourceMetadataUrl}"`,
    },
    message: `${what} ${challenge.tokenHint} and send it as Authorization: Bearer <token>; ${retry}. ${NOTHING_CHANGED}`,
    data: { reason },
  };
}

function verifierDown(): HttpRefusal {
  return {
    status: 503,
    code: HOST_REFUSAL_CODES.Unavailable,
    reason: 'auth:verifier-failed',
    headers: { 'retry-after': '5' },
    message:
      'The server could not check the bearer token because its token store failed. ' +
      `Retry the same request in 5 s; the token itself was not judged invalid. ${NOTHING_CHANGED}`,
    data: { retryAfterMs: 5000 },
  };
}
