/**
 * The stdio leg's answer to a request line that is JSON, carries an id and a method, but is not a valid JSON-RPC
 * request (e.g. `params` a string, `params._meta` a number). The SDK's stdio transport drops such a line without
 * an answer, so the client would wait for its whole timeout; here it gets -32600 with one sentence naming the
 * field, like the HTTP leg's 400.
 *
 * @packageDocumentation
 */
import { describeIssue } from '@recourse/core';
import { isJSONRPCRequest, specTypeSchemas } from '@modelcontextprotocol/server';
import type { z } from 'zod';

type Validate = (value: unknown) => { issues?: readonly unknown[] } | Promise<unknown>;

/** The JSON-RPC error line for `message` when it is a request with an id and a method but an invalid shape. */
export function invalidRequestAnswer(message: unknown): string | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return undefined;
  const { id, method } = message as { id?: unknown; method?: unknown };
  if ((typeof id !== 'string' && typeof id !== 'number') || typeof method !== 'string') return undefined;
  if (isJSONRPCRequest(message)) return undefined;
  const validate = specTypeSchemas.JSONRPCRequest['~standard'].validate as Validate;
  const outcome = validate(message);
  const issue =
    outcome instanceof Promise ? undefined : (outcome.issues?.[0] as z.core.$ZodIssue | undefined);
  let sentence = 'the message is not a valid JSON-RPC request';
  if (issue !== undefined) {
    const text = describeIssue(issue, message);
    sentence = `\`${text.field === '' ? 'message' : text.field}\` is ${text.received ?? 'missing'}; expected ${text.expected}`;
  }
  const error = { code: -32600, message: `Invalid ${method.slice(0, 60)} request: ${sentence}.` };
  return `${JSON.stringify({ jsonrpc: '2.0', id, error })}\n`;
}
