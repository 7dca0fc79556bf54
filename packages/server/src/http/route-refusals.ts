/**
 * Refusals for requests that miss the MCP endpoint: unknown paths (404) and unserved methods (405).
 *
 * @packageDocumentation
 */
import { HOST_REFUSAL_CODES } from './refusal-codes.ts';
import { NOTHING_CHANGED, clip, type HttpRefusal } from './http-refusal.ts';

/** 404 (-31404) for a path this host does not serve, naming the ones it does. */
export function notFound(path: string, mcpPath: string, metadataPath: string): HttpRefusal {
  return {
    status: 404,
    code: HOST_REFUSAL_CODES.NotFound,
    reason: 'not-found',
    message:
      `Nothing is served at "${clip(path)}". The MCP endpoint is ${mcpPath} (POST) and the ` +
      `protected-resource metadata is at ${metadataPath} (GET); requests to other paths are refused the same way. ` +
      NOTHING_CHANGED,
  };
}

/** 405 (-31405) with `Allow` for a method a path does not serve. */
export function methodNotAllowed(
  method: string | undefined,
  path: string,
  allowed: 'GET' | 'POST',
): HttpRefusal {
  const why =
    allowed === 'POST'
      ? 'This server is stateless: it keeps no sessions and no standalone event stream, so only POST is served'
      : 'The metadata document is read-only';
  return {
    status: 405,
    code: HOST_REFUSAL_CODES.MethodNotAllowed,
    reason: 'method',
    headers: { allow: allowed === 'GET' ? 'GET, HEAD' : 'POST' },
    message: `HTTP method ${clip(method ?? 'none', 16)} is not served at ${clip(path)}. ${why}; send ${allowed} instead. ${NOTHING_CHANGED}`,
  };
}
