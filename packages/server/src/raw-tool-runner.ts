/**
 * Runs a {@link RawTool}: outside the pipeline, but a thrown error still becomes a redacted internal failure.
 *
 * @packageDocumentation
 */
import { decodeFailure } from '@recourse/core';
import { isInputRequiredResult, ProtocolError, type ServerContext } from '@modelcontextprotocol/server';
import type { Logger } from './logger.ts';
import type { RawTool } from './tool-catalog.ts';
import { mapFailure, type MappedResult } from './pipeline/result-mapping.ts';

/**
 * Calls a raw tool's handler with the raw SDK context. Its result is passed on as is, including a 2026-07-28
 * input-required result (`inputRequired(...)` from the SDK, recorded with outcome `ok`); a thrown SDK
 * `ProtocolError` is rethrown so the caller gets that JSON-RPC error (e.g. -32602 for a tampered
 * `requestState`); any other exception becomes `internal` / `INTERNAL_ERROR` with a correlation id, logged in full.
 */
export async function runRawTool(
  tool: RawTool,
  rawArguments: unknown,
  sdk: ServerContext,
  correlationId: string,
  logger: Logger,
  principalId: string | null,
): Promise<MappedResult> {
  try {
    const args = (rawArguments ?? {}) as Record<string, unknown>;
    const result = await tool.handler(args, sdk);
    if (isInputRequiredResult(result)) return { result, outcome: 'ok', code: null };
    if (result.isError !== true) return { result, outcome: 'ok', code: null };
    const failure = decodeFailure(result);
    return { result, outcome: failure?.category ?? 'internal', code: failure?.code ?? null };
  } catch (error) {
    if (error instanceof ProtocolError) throw error;
    return mapFailure(error, {
      tool: tool.name,
      correlationId,
      logger: logger.child({ correlationId, tool: tool.name }),
      changed: false,
      principalId,
      keyed: false,
    });
  }
}
