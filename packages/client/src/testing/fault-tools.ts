/**
 * The tools of the fault-injection server and the state they share across per-request server instances.
 *
 * @packageDocumentation
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { McpServer } from '@modelcontextprotocol/server';
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { FAILURE_META_KEY, IDEMPOTENCY_META_KEY } from '@recourse/core';
import { sleep } from '../abortable-sleep.ts';
import { registerFaultControlTools } from './fault-control-tools.ts';
import { FaultScript, isHttpLevelFault } from './fault-script.ts';
import type { Fault } from './fault-script.ts';

/** One piece of tool work the server actually did. */
export interface FaultExecution {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly at: number;
}

/** One cancellation the server saw while a tool was still running. */
export interface FaultCancellation {
  readonly tool: string;
  readonly reason: string;
  readonly at: number;
}

/** What the fault server remembers; tests read it to see what reached the server. */
export interface FaultServerState {
  readonly script: FaultScript;
  readonly executions: FaultExecution[];
  readonly cancellations: FaultCancellation[];
  /** `tools/call` requests that reached the server, per tool (counted before any fault plays). */
  readonly requests: Map<string, number>;
  /** Running calls by JSON-RPC request id, so that cancellations arriving on another request can stop them. */
  readonly inflight: Map<string | number, AbortController>;
  /** First answers of `record_once`, by idempotency key. */
  readonly keyed: Map<string, string>;
  /** Protocol versions the HTTP server accepts (undefined: all); others get -32022. */
  acceptedVersions: readonly string[] | undefined;
  /** Fires when the server closes, ending hanging tools. */
  readonly closing: AbortController;
}

/** Creates empty fault-server state. */
export function createFaultState(): FaultServerState {
  return {
    script: new FaultScript(),
    executions: [],
    cancellations: [],
    requests: new Map(),
    keyed: new Map(),
    inflight: new Map(),
    closing: new AbortController(),
    acceptedVersions: undefined,
  };
}

/** The fault already taken by the HTTP layer for the request being served (undefined: none queued). */
export const takenFault = new AsyncLocalStorage<{ fault: Fault | undefined }>();

function failureResult(fault: Extract<Fault, { kind: 'tool_failure' }>, tool: string): CallToolResult {
  const retryable = fault.retryable ?? (fault.category === 'transient' || fault.category === 'rate_limit');
  const wait = fault.retryAfterMs === undefined ? '' : ` Wait ${fault.retryAfterMs} ms and try again.`;
  const text =
    fault.message ??
    `The fault server failed ${tool} on purpose with a ${fault.category} failure.${wait} ${
      retryable ? 'Retrying may help.' : 'Retrying unchanged will not help.'
    } Nothing was changed.`;
  return {
    isError: true,
    content: [{ type: 'text', text }],
    _meta: {
      [FAILURE_META_KEY]: {
        category: fault.category,
        code: fault.code ?? `INJECTED_${fault.category.toUpperCase()}`,
        retryable,
        changed: false,
        ...(fault.retryAfterMs === undefined ? {} : { retryAfterMs: fault.retryAfterMs }),
      },
    },
  };
}

type Work = (args: Record<string, unknown>) => string;

/** Runs `work` under the fault queued for this call (if any), recording cancellations. */
async function underFault(
  state: FaultServerState,
  tool: string,
  args: Record<string, unknown>,
  ctx: ServerContext,
  work: Work,
): Promise<CallToolResult> {
  const stored = takenFault.getStore();
  let fault = stored ? stored.fault : state.script.take(tool);
  if (fault && isHttpLevelFault(fault)) fault = undefined;
  const external = new AbortController();
  state.inflight.set(ctx.mcpReq.id, external);
  const cancelled = AbortSignal.any([ctx.mcpReq.signal, external.signal]);
  const signal = AbortSignal.any([cancelled, state.closing.signal]);
  let finished = false;
  const onAbort = (): void => {
    if (finished || state.closing.signal.aborted) return;
    const reason: unknown = cancelled.reason;
    state.cancellations.push({
      tool,
      reason: reason instanceof Error ? reason.message : String(reason),
      at: Date.now(),
    });
  };
  cancelled.addEventListener('abort', onAbort, { once: true });
  try {
    const token = ctx.mcpReq._meta?.progressToken;
    switch (fault?.kind) {
      case 'latency':
        await sleep(fault.ms, signal);
        break;
      case 'hang':
        await sleep(2 ** 31 - 1, signal);
        break;
      case 'tool_failure':
        return failureResult(fault, tool);
      case 'foreign_error':
        return { isError: true, content: [{ type: 'text', text: fault.text }] };
      case 'progress':
      case 'stall_progress':
        for (let step = 1; step <= fault.steps && !signal.aborted; step++) {
          await sleep(fault.everyMs, signal);
          if (token !== undefined && !signal.aborted) {
            await ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken: token, progress: step, total: fault.steps },
            });
          }
        }
        if (fault.kind === 'stall_progress') await sleep(2 ** 31 - 1, signal);
        break;
      default:
        break;
    }
    if (signal.aborted) return { isError: true, content: [{ type: 'text', text: 'Cancelled.' }] };
    const text = work(args);
    state.executions.push({ tool, args, at: Date.now() });
    return { content: [{ type: 'text', text }] };
  } finally {
    finished = true;
    cancelled.removeEventListener('abort', onAbort);
    if (state.inflight.get(ctx.mcpReq.id) === external) state.inflight.delete(ctx.mcpReq.id);
  }
}

/**
 * Builds a fresh SDK server with the fault tools, bound to shared `state`:
 * `echo` and `search`/`search_mirror` (read-only), `record` (a write that is not safe to repeat),
 * and `record_once` (a write that honours an `idempotencyKey` it advertises in `_meta`); plus the control tools
 * `fault_inject`, `fault_log` and `fault_versions` unless `control` is false.
 */
export function createFaultMcpServer(
  state: FaultServerState,
  options: { control?: boolean } = {},
): McpServer {
  const server = new McpServer({ name: 'recourse-fault-server', version: '0.1.0' });
  if (options.control !== false) registerFaultControlTools(server, state);
  const keyed = state.keyed;
  const readOnly = { readOnlyHint: true, idempotentHint: true };
  server.registerTool(
    'echo',
    { description: 'Returns its text.', inputSchema: z.object({ text: z.string() }), annotations: readOnly },
    (args, ctx) => underFault(state, 'echo', args, ctx, (a) => String(a.text)),
  );
  for (const name of ['search', 'search_mirror']) {
    server.registerTool(
      name,
      {
        description: `Searches (${name}).`,
        inputSchema: z.object({ query: z.string() }),
        annotations: readOnly,
      },
      (args, ctx) =>
        underFault(state, name, args, ctx, (a) => `${name} found nothing for ${String(a.query)}`),
    );
  }
  server.registerTool(
    'record',
    {
      description: 'Records a note; not safe to repeat.',
      inputSchema: z.object({ note: z.string() }),
      annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false },
    },
    (args, ctx) => underFault(state, 'record', args, ctx, (a) => `Recorded note "${String(a.note)}".`),
  );
  server.registerTool(
    'record_once',
    {
      description: 'Records a note once per idempotency key.',
      inputSchema: z.object({ note: z.string(), idempotencyKey: z.string().min(8).max(200).optional() }),
      annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false },
      _meta: { [IDEMPOTENCY_META_KEY]: { argument: 'idempotencyKey', ttlMs: 60_000 } },
    },
    (args, ctx) => {
      const key = args.idempotencyKey;
      const replay = key === undefined ? undefined : keyed.get(key);
      if (replay !== undefined) return { content: [{ type: 'text', text: replay }] };
      return underFault(state, 'record_once', args, ctx, (a) => {
        const text = `Recorded note "${String(a.note)}".`;
        if (key !== undefined) keyed.set(key, text);
        return text;
      });
    },
  );
  return server;
}
