/**
 * JSON-RPC error codes the HTTP host uses for its own transport-level refusals.
 *
 * They sit outside the JSON-RPC reserved range (-32768…-32000) and echo the HTTP status they travel with.
 * The registry of record is `RECOURSE_ERROR_CODES` in `@recourse/core`.
 *
 * @packageDocumentation
 */
import { RECOURSE_ERROR_CODES } from '@recourse/core';

/** Codes of the HTTP host's refusals, keyed by meaning; a code is never reused for another meaning. */
export const HOST_REFUSAL_CODES = {
  /** HTTP 401: missing, unknown, revoked or expired bearer token. */
  Unauthorized: RECOURSE_ERROR_CODES.Unauthorized,
  /** HTTP 403: foreign `Host` or `Origin` header (DNS-rebinding protection). */
  Forbidden: RECOURSE_ERROR_CODES.Forbidden,
  /** HTTP 404: no resource at the requested path. */
  NotFound: RECOURSE_ERROR_CODES.NotFound,
  /** HTTP 405: HTTP method not served at the path. */
  MethodNotAllowed: RECOURSE_ERROR_CODES.MethodNotAllowed,
  /** HTTP 413: request body over the size limit. */
  PayloadTooLarge: RECOURSE_ERROR_CODES.PayloadTooLarge,
  /** HTTP 415: request body is not `application/json`. */
  UnsupportedMediaType: RECOURSE_ERROR_CODES.UnsupportedMediaType,
  /** HTTP 429: too many requests from one client address. */
  TooManyRequests: RECOURSE_ERROR_CODES.TooManyRequests,
  /** HTTP 503: the token verifier failed; the request was not served. */
  Unavailable: RECOURSE_ERROR_CODES.Unavailable,
} as const;

/** JSON-RPC codes for malformed bodies, as the specification defines them. */
export const JSON_RPC_CODES = {
  ParseError: -32700,
  InvalidRequest: -32600,
} as const;
