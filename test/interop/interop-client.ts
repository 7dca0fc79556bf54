/**
 * What the interop tests ask of a client: the server's record of the work it did (`interop_log`), the failure a
 * call ended with, and the text of a result.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import { isRecourseCallError } from '@recourse/client';
import type { RecourseCallError, RecourseClient } from '@recourse/client';
import type { InteropRecord } from './interop-record.ts';

/** The server's record, read through `client` (the same process, so also the same stdio child). */
export async function serverRecord(client: RecourseClient): Promise<InteropRecord> {
  const { result } = await client.callTool('interop_log');
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
