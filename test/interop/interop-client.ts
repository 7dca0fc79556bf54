/**
 * What the interop tests ask of a client: the server's record of the work it did (`interop_log`), the failure a
 * call ended with, the text of a result, and whether a run was stopped on the server soon after the client gave up.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { isRecourseCallError } from '@recourse/client';
import type { RecourseCallError, RecourseClient } from '@recourse/client';
import { expect } from 'vitest';
import type { InteropRecord, SlowRun } from './interop-record.ts';

/**
 * The server's record, read through `client` (the same process, so also the same stdio child), under a 20 s
 * deadline whatever the client's own, so that it may also be the call that connects.
 */
export async function serverRecord(client: RecourseClient): Promise<InteropRecord> {
  const { result } = await client.callTool('interop_log', {}, { timeoutMs: 20_000 });
  return JSON.parse(resultText(result) || '{}') as InteropRecord;
}

/** The first text part of a result. */
export function resultText(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** The failure `call` rejects with, and when; throws when it succeeds or rejects with anything else. */
export async function failureOf(call: Promise<unknown>): Promise<{ error: RecourseCallError; at: number }> {
  try {
    await call;
  } catch (error) {
    if (!isRecourseCallError(error)) throw error;
    return { error, at: Date.now() };
  }
  throw new Error('the call succeeded');
}

/** Resolves after `ms` milliseconds. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** How soon after the client gives up the server must have been told to stop. */
export const STOPPED_WITHIN_MS = 500;

/** Polls the server's record until the run tagged `tag` has stopped, or 2 s pass. */
export async function stoppedRun(client: RecourseClient, tag: string): Promise<SlowRun | undefined> {
  const until = Date.now() + 2_000;
  for (;;) {
    const run = (await serverRecord(client)).slow.find((r) => r.tag === tag);
    if (run?.abortedAt !== undefined || run?.finishedAt !== undefined || Date.now() > until) return run;
    await pause(50);
  }
}

/** Asserts that `run` was told to stop within {@link STOPPED_WITHIN_MS} of `gaveUpAt` (never, on a deaf server). */
export function expectStoppedSoonAfter(run: SlowRun | undefined, gaveUpAt: number, deaf: boolean): void {
  expect(run, 'the call reached the server').toBeDefined();
  if (deaf) {
    expect(run?.abortedAt, 'this server cannot hear a cancellation').toBeUndefined();
    return;
  }
  expect(run?.finishedAt, 'the handler ran to the end').toBeUndefined();
  expect(run?.abortedAt, 'the handler was told to stop').toBeDefined();
  expect((run?.abortedAt ?? Infinity) - gaveUpAt).toBeLessThanOrEqual(STOPPED_WITHIN_MS);
}
