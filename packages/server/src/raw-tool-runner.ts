/**
 * Runs a {@link RawTool}: outside the pipeline, but a thrown error still becomes a redacted internal failure.
 *
 * @packageDocumentation
 */
import { decodeFailure } from '@recourse/core';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { RawTool } from './tool-catalog.ts';
import { mapFailure, type MappedResult } from './pipeline/result-mapping.ts';

/**
 * Calls a raw tool's handler with the raw SDK context. Its result is passed on as is; an exception becomes
 * `internal` / `INTERNAL_ERROR` with a correlation id, logged in full.
 */
export async function runRawTool(
  tool: RawTool,
  rawArguments: unknown,
  sdk: ServerContext,
  correlationId: string,
  logger: Logger,
  memberId: string | null,
): Promise<MappedResult> {
  try {
    const args = (rawArguments ?? {}) as Record<string, unknown>;
    const result = await tool.handler(args, sdk);
    if (result.isError !== true) return { result, outcome: 'ok', code: null };
    const failure = decodeFailure(result);
    return { result, outcome: failure?.category ?? 'internal', code: failure?.code ?? null };
  } catch (error) {
    return mapFailure(error, {
      tool: tool.name,
      correlationId,
      logger: logger.child({ correlationId, tool: tool.name }),
      changed: false,
      memberId,
      keyed: false,
    });
  }
}
