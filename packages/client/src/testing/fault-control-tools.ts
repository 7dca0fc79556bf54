/**
 * Control tools of the fault server, so that a client in another process (stdio, or any MCP client over HTTP)
 * can script faults and read back what reached the server: `fault_inject`, `fault_log`, `fault_versions`.
 *
 * @packageDocumentation
 */
import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { FAILURE_CATEGORIES } from '@recourse/core';
import type { Fault } from './fault-script.ts';
import type { FaultServerState } from './fault-tools.ts';

const ms = z.number().int().min(0).max(600_000);

/** The schema of one {@link Fault}, as `fault_inject` accepts it. */
export const faultSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('latency'), ms }),
  z.object({ kind: z.literal('hang') }),
  z.object({
    kind: z.literal('tool_failure'),
    category: z.enum(FAILURE_CATEGORIES),
    code: z.string().optional(),
    message: z.string().optional(),
    retryAfterMs: ms.optional(),
    retryable: z.boolean().optional(),
  }),
  z.object({ kind: z.literal('foreign_error'), text: z.string() }),
  z.object({
    kind: z.literal('protocol_error'),
    code: z.number().int(),
    message: z.string().optional(),
    data: z.unknown().optional(),
    httpStatus: z.number().int().min(200).max(599).optional(),
  }),
  z.object({
    kind: z.literal('http_status'),
    status: z.number().int().min(200).max(599),
    retryAfterSeconds: z.number().int().min(0).optional(),
  }),
  z.object({ kind: z.literal('drop_before') }),
  z.object({ kind: z.literal('drop_after') }),
  z.object({ kind: z.literal('progress'), everyMs: ms, steps: z.number().int().min(1).max(1000) }),
  z.object({ kind: z.literal('stall_progress'), everyMs: ms, steps: z.number().int().min(0).max(1000) }),
  z.object({ kind: z.literal('unsupported_version'), supported: z.array(z.string()).min(1) }),
]);

/** Registers the control tools on `server`. */
export function registerFaultControlTools(server: McpServer, state: FaultServerState): void {
  server.registerTool(
    'fault_inject',
    {
      description:
        'Queues faults for the next calls of a tool, in order; each fault is used by one call. HTTP-level faults ' +
        '(protocol_error with an HTTP status, http_status, drop_before, drop_after, unsupported_version) play only over HTTP.',
      inputSchema: z.object({ tool: z.string().min(1), faults: z.array(faultSchema).min(1).max(100) }),
      annotations: { readOnlyHint: false, idempotentHint: false },
    },
    ({ tool, faults }) => {
      state.script.push(tool, ...(faults as Fault[]));
      return {
        content: [
          {
            type: 'text',
            text: `Queued ${faults.length} fault(s) for ${tool}; ${state.script.pending(tool)} pending.`,
          },
        ],
      };
    },
  );
  server.registerTool(
    'fault_log',
    {
      description:
        'Answers what reached the server: tool work done, cancellations seen, and faults still queued.',
      annotations: { readOnlyHint: true, idempotentHint: true },
    },
    () => {
      const log = {
        executions: state.executions.map((e) => ({ ...e })),
        cancellations: state.cancellations.map((c) => ({ ...c })),
        pending: state.script.pending(),
      };
      return { content: [{ type: 'text', text: JSON.stringify(log) }], structuredContent: log };
    },
  );
  server.registerTool(
    'fault_versions',
    {
      description:
        'Sets the protocol versions the HTTP server accepts from now on (others get -32022); null accepts all.',
      inputSchema: z.object({ accept: z.array(z.string()).min(1).nullable() }),
      annotations: { readOnlyHint: false, idempotentHint: true },
    },
    ({ accept }) => {
      state.acceptedVersions = accept ?? undefined;
      return {
        content: [
          { type: 'text', text: accept ? `Accepting ${accept.join(', ')}.` : 'Accepting every version.' },
        ],
      };
    },
  );
}
