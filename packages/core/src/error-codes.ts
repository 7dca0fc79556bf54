/**
 * The registry of JSON-RPC error codes: those of JSON-RPC and MCP, the retired ones, and Recourse's own
 * transport-level codes, which live outside the reserved range -32768…-32000 and never change meaning.
 *
 * @packageDocumentation
 */

/** Codes defined by JSON-RPC 2.0 and by MCP 2026-07-28. */
export const PROTOCOL_ERROR_CODES = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

/**
 * Retired MCP codes: `ResourceNotFound` (-32002) is only received, from servers of 2025-11-25 and older, and
 * read as "not found"; `UrlElicitationRequired` (-32042) is never sent.
 */
export const LEGACY_ERROR_CODES = {
  ResourceNotFound: -32002,
  UrlElicitationRequired: -32042,
} as const;

/**
 * Recourse's own transport-level refusals, outside -32768…-32000; the last three digits echo the HTTP
 * status. A code here is never reused for another meaning.
 */
export const RECOURSE_ERROR_CODES = {
  Unauthorized: -31401,
  Forbidden: -31403,
  NotFound: -31404,
  MethodNotAllowed: -31405,
  NotAcceptable: -31406,
  PayloadTooLarge: -31413,
  UnsupportedMediaType: -31415,
  TooManyRequests: -31429,
  Unavailable: -31503,
} as const;

/** Where a code comes from. */
export type ErrorCodeOrigin = 'jsonrpc' | 'mcp' | 'legacy' | 'recourse' | 'reserved' | 'implementation';

/** What a JSON-RPC error code means, as told by {@link describeErrorCode}. */
export interface ErrorCodeDescription {
  readonly code: number;
  readonly name: string;
  readonly origin: ErrorCodeOrigin;
  readonly meaning: string;
  /** The HTTP status that goes with it on Streamable HTTP, when one is defined. */
  readonly httpStatus?: number;
}

type Entry = Omit<ErrorCodeDescription, 'code'>;

const KNOWN = new Map<number, Entry>([
  [
    -32700,
    { name: 'ParseError', origin: 'jsonrpc', meaning: 'The message is not valid JSON.', httpStatus: 400 },
  ],
  [
    -32600,
    {
      name: 'InvalidRequest',
      origin: 'jsonrpc',
      meaning: 'The message is not a valid JSON-RPC request.',
      httpStatus: 400,
    },
  ],
  [
    -32601,
    {
      name: 'MethodNotFound',
      origin: 'jsonrpc',
      meaning: 'The method is unknown or needs a capability the server did not advertise.',
      httpStatus: 404,
    },
  ],
  [
    -32602,
    {
      name: 'InvalidParams',
      origin: 'jsonrpc',
      meaning:
        'The request parameters are invalid: an unknown tool, prompt or resource, a bad cursor, or a missing _meta envelope (HTTP 400 for the envelope).',
    },
  ],
  [
    -32603,
    { name: 'InternalError', origin: 'jsonrpc', meaning: 'The peer failed while handling the request.' },
  ],
  [
    -32020,
    {
      name: 'HeaderMismatch',
      origin: 'mcp',
      meaning: 'HTTP headers are missing, malformed or disagree with the body.',
      httpStatus: 400,
    },
  ],
  [
    -32021,
    {
      name: 'MissingRequiredClientCapability',
      origin: 'mcp',
      meaning:
        'Handling the request needs a client capability the request did not declare (see data.requiredCapabilities).',
      httpStatus: 400,
    },
  ],
  [
    -32022,
    {
      name: 'UnsupportedProtocolVersion',
      origin: 'mcp',
      meaning:
        'The protocol version is not supported (see data.supported and data.requested); retry with a supported one.',
      httpStatus: 400,
    },
  ],
  [
    -32002,
    {
      name: 'ResourceNotFound',
      origin: 'legacy',
      meaning: 'Resource not found, from a server of 2025-11-25 or older; read as not found, never sent.',
    },
  ],
  [
    -32042,
    {
      name: 'UrlElicitationRequired',
      origin: 'legacy',
      meaning: 'URL elicitation required (2025-11-25 only); never sent.',
    },
  ],
  [
    -31401,
    {
      name: 'Unauthorized',
      origin: 'recourse',
      meaning: 'The bearer credential is missing, unknown, revoked or expired; sign in again.',
      httpStatus: 401,
    },
  ],
  [
    -31403,
    {
      name: 'Forbidden',
      origin: 'recourse',
      meaning: 'The request was refused before reaching a tool (host, origin or scope).',
      httpStatus: 403,
    },
  ],
  [
    -31404,
    {
      name: 'NotFound',
      origin: 'recourse',
      meaning: 'Nothing is served at the requested HTTP path; the MCP endpoint is elsewhere.',
      httpStatus: 404,
    },
  ],
  [
    -31405,
    {
      name: 'MethodNotAllowed',
      origin: 'recourse',
      meaning: 'The HTTP method is not served at this path; the MCP endpoint takes POST.',
      httpStatus: 405,
    },
  ],
  [
    -31406,
    {
      name: 'NotAcceptable',
      origin: 'recourse',
      meaning: 'The Accept header allows neither application/json nor text/event-stream.',
      httpStatus: 406,
    },
  ],
  [
    -31413,
    {
      name: 'PayloadTooLarge',
      origin: 'recourse',
      meaning: 'The request body is larger than the server accepts.',
      httpStatus: 413,
    },
  ],
  [
    -31415,
    {
      name: 'UnsupportedMediaType',
      origin: 'recourse',
      meaning: 'The request body is not application/json.',
      httpStatus: 415,
    },
  ],
  [
    -31429,
    {
      name: 'TooManyRequests',
      origin: 'recourse',
      meaning: 'Too many requests; wait for the time in Retry-After.',
      httpStatus: 429,
    },
  ],
  [
    -31503,
    {
      name: 'Unavailable',
      origin: 'recourse',
      meaning:
        'The server cannot take the request right now (its token store failed, its session limit is reached, or the instance is shutting down); nothing was done; wait for Retry-After or send it to another instance.',
      httpStatus: 503,
    },
  ],
]);

/** True for codes in the range JSON-RPC reserves for pre-defined errors, -32768…-32000. */
export function isReservedCode(code: number): boolean {
  return Number.isInteger(code) && code >= -32768 && code <= -32000;
}

/**
 * Describes a JSON-RPC error code: its name, where it comes from and what it means. Codes not in the
 * registry are `legacy` (-32000…-32019: implementation-defined, no meaning may be assumed), `reserved`
 * (elsewhere in -32768…-32000: only the specifications define them) or `implementation` (outside: the
 * peer's own).
 */
export function describeErrorCode(code: number): ErrorCodeDescription {
  const known = KNOWN.get(code);
  if (known !== undefined) return { code, ...known };
  if (code >= -32019 && code <= -32000 && Number.isInteger(code)) {
    return {
      code,
      name: 'LegacyServerError',
      origin: 'legacy',
      meaning: 'An implementation-defined code from the legacy range; no meaning may be assumed.',
    };
  }
  if (isReservedCode(code)) {
    return {
      code,
      name: 'Reserved',
      origin: 'reserved',
      meaning: 'A reserved code that no specification in use defines; treat it as an unknown protocol error.',
    };
  }
  return {
    code,
    name: 'ImplementationDefined',
    origin: 'implementation',
    meaning: "A code of the peer's own; its meaning is defined by that implementation.",
  };
}

/** The Recourse code for an HTTP refusal status (401, 403, 404, 405, 406, 413, 415, 429, 503), or undefined. */
export function recourseCodeForStatus(status: number): number | undefined {
  for (const [code, entry] of KNOWN)
    if (entry.origin === 'recourse' && entry.httpStatus === status) return code;
  return undefined;
}
