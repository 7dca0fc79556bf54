/**
 * Test support: raw 2026-07-28 JSON-RPC requests with the standard `_meta` envelope, declaring the tasks extension
 * or not, over the client's raw HTTP dispatch.
 */
import { createHttpRawDispatch } from '../../packages/client/src/tasks/http-raw-dispatch.ts';

/** What one raw request answered. */
export type WireAnswer =
  | { readonly kind: 'result'; readonly result: Record<string, unknown> }
  | { readonly kind: 'error'; readonly error: { code: number; message: string; data?: unknown } };

/** A caller of one endpoint with one token. */
export interface WireCaller {
  (method: string, params: Record<string, unknown>, options?: { declare?: boolean }): Promise<WireAnswer>;
}

/** Creates a caller; every request declares the tasks extension unless `declare: false`. */
export function wireCaller(url: string, token?: string): WireCaller {
  const dispatch = createHttpRawDispatch({ url, ...(token === undefined ? {} : { token }) });
  return async (method, params, options = {}) => {
    const capabilities =
      options.declare === false ? {} : { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const answer = await dispatch({
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'tasks-wire-test', version: '0.0.1' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
        },
      },
    });
    return answer as WireAnswer;
  };
}

/** Polls `tasks/get` every `everyMs` until the task is terminal (bounded by `limitMs`). */
export async function settleTask(
  call: WireCaller,
  taskId: string,
  limitMs = 15_000,
  everyMs = 50,
): Promise<Record<string, unknown>> {
  const until = Date.now() + limitMs;
  for (;;) {
    const answer = await call('tasks/get', { taskId });
    if (answer.kind === 'error') throw new Error(`tasks/get failed: ${answer.error.message}`);
    const status = answer.result.status;
    if (status === 'completed' || status === 'failed' || status === 'cancelled') return answer.result;
    if (Date.now() > until) throw new Error(`Task ${taskId} still ${String(status)} after ${limitMs} ms.`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
