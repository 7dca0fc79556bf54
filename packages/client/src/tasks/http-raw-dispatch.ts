/**
 * One 2026-07-28 JSON-RPC request over Streamable HTTP, outside the SDK `Client`: the request path the
 * `@modelcontextprotocol/ext-tasks` requester needs for task traffic (`rawDispatch`), which the SDK's own codecs
 * refuse. Sends the standard headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) and the bearer token,
 * reads a JSON or an SSE answer.
 *
 * @packageDocumentation
 */
import type { JsonRpcResponse, RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';
import { DispatchError } from '@modelcontextprotocol/ext-tasks/client';

/** The revision the raw path speaks. */
export const TASKS_PROTOCOL_VERSION = '2026-07-28';

/** Options of {@link createHttpRawDispatch}. */
export interface HttpRawDispatchOptions {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** Sent as `Authorization: Bearer …` on every request. */
  readonly token?: string;
  /** Per-request timeout when the requester gives none (default 30 000 ms). */
  readonly timeoutMs?: number;
  /** The fetch to use (default the global one). */
  readonly fetch?: typeof fetch;
}

function nameOf(method: string, params: Record<string, unknown>): unknown {
  if (method === 'tools/call' || method === 'prompts/get') return params.name;
  if (method === 'resources/read') return params.uri;
  if (method.startsWith('tasks/')) return params.taskId;
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function lastMessageOf(text: string, id: number): unknown {
  let found: unknown;
  for (const line of text.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    try {
      const message = JSON.parse(line.slice(5).trim()) as unknown;
      if (isRecord(message) && message.id === id) found = message;
    } catch {
      // A non-JSON data line (e.g. an SSE priming event) is not our answer.
    }
  }
  return found;
}

let nextId = 1;

/**
 * Creates a raw dispatch for `createTaskSessionFromClient(client, { rawDispatch, v2RequestFraming })`. A JSON-RPC
 * error answer resolves as `{ kind: 'error' }`; an HTTP failure without a JSON-RPC body, a timeout or a network
 * error rejects with the package's `DispatchError` (retryable for network errors, 5xx and timeouts).
 */
export function createHttpRawDispatch(options: HttpRawDispatchOptions): RawClientDispatch {
  const doFetch = options.fetch ?? fetch;
  return async (request, dispatch = {}) => {
    if (!isRecord(request) || typeof request.method !== 'string')
      throw new DispatchError('An MCP request must be an object with a string method.');
    const method = request.method;
    const params = isRecord(request.params) ? request.params : {};
    const id = nextId++;
    const name = nameOf(method, params);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': TASKS_PROTOCOL_VERSION,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
    };
    // The requester's own headers win; names compare case-insensitively so that none is sent twice.
    for (const [header, value] of Object.entries(dispatch.context?.headers ?? {}))
      headers[header.toLowerCase()] = value;
    const timeoutMs = dispatch.context?.requestTimeoutMs ?? options.timeoutMs ?? 30_000;
    const signals = [
      AbortSignal.timeout(timeoutMs),
      ...(dispatch.signal === undefined ? [] : [dispatch.signal]),
    ];
    let response: Response;
    let text: string;
    try {
      response = await doFetch(options.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        signal: AbortSignal.any(signals),
      });
      text = await response.text();
    } catch (error) {
      if (dispatch.signal?.aborted === true) throw dispatch.signal.reason;
      throw new DispatchError(`${method} to ${options.url} did not get an answer.`, true, { cause: error });
    }
    const contentType = response.headers.get('content-type') ?? '';
    let message: unknown;
    try {
      message = contentType.includes('text/event-stream') ? lastMessageOf(text, id) : JSON.parse(text);
    } catch {
      message = undefined;
    }
    if (isRecord(message) && isRecord(message.error)) {
      const error = message.error;
      return {
        kind: 'error',
        error: {
          code: typeof error.code === 'number' ? error.code : -32603,
          message: typeof error.message === 'string' ? error.message : 'Unknown error',
          ...(error.data === undefined ? {} : { data: error.data }),
        },
      } as JsonRpcResponse;
    }
    if (isRecord(message) && 'result' in message)
      return { kind: 'result', result: message.result } as JsonRpcResponse;
    throw new DispatchError(
      `${method} to ${options.url} answered HTTP ${response.status} without a JSON-RPC answer.`,
      response.status >= 500,
    );
  };
}
