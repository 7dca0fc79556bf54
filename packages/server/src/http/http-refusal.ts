/**
 * A refusal the HTTP host answers itself, before any MCP server instance exists, and how it is written.
 *
 * @packageDocumentation
 */
import type { ServerResponse } from 'node:http';

/** A JSON-RPC request id as echoed in error bodies (`null` when unknown). */
export type JsonRpcId = string | number | null;

/** One refusal: the HTTP status, the JSON-RPC error it carries and any extra headers. */
export interface HttpRefusal {
  readonly status: number;
  /** JSON-RPC error code (see `HOST_REFUSAL_CODES` / `JSON_RPC_CODES`). */
  readonly code: number;
  /** Stands alone: what failed, the wrong value, what is accepted, the next step, retry advice, what changed. */
  readonly message: string;
  /** Machine-readable detail for programs (never tokens, paths or internal hostnames). */
  readonly data?: Record<string, unknown>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Short label for logs, e.g. `flood`, `host`, `auth:revoked`. */
  readonly reason: string;
  /** Log at debug only (e.g. repeats of one flood refusal), so a flood cannot flood the log too. */
  readonly quiet?: boolean;
}

/** Refusal messages end with this clause: nothing was served, so nothing changed. */
export const NOTHING_CHANGED = 'Nothing was changed.';

/**
 * Shortens a client-supplied value for a refusal message: control characters dropped, at most `max`
 * characters (default 80), an ellipsis marking the cut.
 */
export function clip(value: string, max = 80): string {
  // eslint-disable-next-line no-control-regex
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '');
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** Writes `refusal` as a JSON-RPC error body with `id`; the response is not cached. */
export function writeRefusal(res: ServerResponse, refusal: HttpRefusal, id: JsonRpcId = null): void {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    error: {
      code: refusal.code,
      message: refusal.message,
      ...(refusal.data !== undefined && { data: refusal.data }),
    },
  });
  res.writeHead(refusal.status, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'content-length': String(Buffer.byteLength(body)),
    ...refusal.headers,
  });
  res.end(body);
}
