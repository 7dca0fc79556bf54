/**
 * JSON-RPC error codes the HTTP host uses for its own transport-level refusals.
 *
 * They sit outside the JSON-RPC reserved range (-32768…-32000) and mirror the HTTP status they travel
 * with (-31000 - status). The registry of record is `RECOURSE_ERROR_CODES` in `@recourse/core`; these
 * literals stand in until that registry lists them, and must keep the same values.
 *
 * @packageDocumentation
 */

/** Codes of the HTTP host's refusals, keyed by meaning; a code is never reused for another meaning. */
export const HOST_REFUSAL_CODES = {
  /** HTTP 401: missing, unknown, revoked or expired bearer token. */
  Unauthorized: -31401,
  /** HTTP 403: foreign `Host` or `Origin` header (DNS-rebinding protection). */
  Forbidden: -31403,
  /** HTTP 404: no resource at the requested path. */
  NotFound: -31404,
  /** HTTP 405: HTTP method not served at the MCP endpoint. */
  MethodNotAllowed: -31405,
  /** HTTP 413: request body over the size limit. */
  PayloadTooLarge: -31413,
  /** HTTP 415: request body is not `application/json`. */
  UnsupportedMediaType: -31415,
  /** HTTP 429: too many requests from one client address. */
  TooManyRequests: -31429,
  /** HTTP 503: the token verifier failed; the request was not served. */
  Unavailable: -31503,
} as const;

/** JSON-RPC codes for malformed bodies, as the specification defines them. */
export const JSON_RPC_CODES = {
  ParseError: -32700,
  InvalidRequest: -32600,
} as const;
