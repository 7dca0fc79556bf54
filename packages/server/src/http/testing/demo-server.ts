/**
 * A small server factory for the host tests: `echo`, a `slow` tool that watches its abort signal and
 * records how it ended, `slow_report` to read that record, and `whoami`. Not part of the public API.
 *
 * @packageDocumentation
 */
import * as z from 'zod/v4';
import { McpServer } from '@modelcontextprotocol/server';
import type { CallCanceller, McpServerFactory } from '../../contract.ts';

/** How one `slow` call ended; times are epoch milliseconds. */
export interface SlowRecord {
  readonly label: string;
  readonly startedAt: number;
  outcome: 'running' | 'finished' | 'aborted';
  endedAt?: number;
  reason?: string;
}

/** State shared by every instance the factory builds (HTTP builds one per request). */
export interface DemoState {
  readonly records: Map<string, SlowRecord>;
  /** Running `slow` calls by `principalId:requestId`, for {@link DemoState.canceller}. */
  readonly running: Map<string, AbortController>;
  /** A canceller over {@link DemoState.running}, as the pipeline's in-flight registry would be. */
  readonly canceller: CallCanceller;
}

/** Creates empty demo state. */
export function createDemoState(): DemoState {
  const running = new Map<string, AbortController>();
  return {
    records: new Map(),
    running,
    canceller: {
      cancel(principalId, requestId, reason) {
        const controller = running.get(`${principalId}:${String(requestId)}`);
        if (controller === undefined) return false;
        controller.abort(reason);
        return true;
      },
    },
  };
}

/** Builds the demo factory over `state`. */
export function createDemoFactory(state: DemoState): McpServerFactory {
  return ({ principal, transport }) => {
    const server = new McpServer({ name: 'host-demo', version: '0.0.1' }, { capabilities: { tools: {} } });
    server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    server.registerTool('whoami', {}, () => ({
      content: [{ type: 'text', text: JSON.stringify({ principal: principal ?? null, transport }) }],
    }));
    server.registerTool('slow_report', { inputSchema: z.object({ label: z.string() }) }, ({ label }) => ({
      content: [{ type: 'text', text: JSON.stringify(state.records.get(label) ?? null) }],
    }));
    server.registerTool(
      'slow',
      { inputSchema: z.object({ label: z.string(), ms: z.number().int().min(0).max(30_000) }) },
      async ({ label, ms }, ctx) => {
        const record: SlowRecord = { label, startedAt: Date.now(), outcome: 'running' };
        state.records.set(label, record);
        const own = new AbortController();
        const key = `${principal?.id ?? 'anonymous'}:${String(ctx.mcpReq.id)}`;
        state.running.set(key, own);
        const signal = AbortSignal.any([ctx.mcpReq.signal, own.signal]);
        try {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, ms);
            signal.addEventListener('abort', () => {
              clearTimeout(timer);
              resolve();
            });
          });
        } finally {
          state.running.delete(key);
        }
        if (record.outcome === 'running') {
          record.outcome = signal.aborted ? 'aborted' : 'finished';
          record.endedAt = Date.now();
          if (signal.aborted) record.reason = String(signal.reason);
        }
        return { content: [{ type: 'text', text: `slow ${label} ${record.outcome}` }] };
      },
    );
    return server;
  };
}
