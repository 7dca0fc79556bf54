/**
 * The fingerprint of a call's arguments, used to tell a repeat from a reuse of an idempotency key.
 *
 * @packageDocumentation
 */
import { createHash } from 'node:crypto';
import { stringify } from 'safe-stable-stringify';

/**
 * SHA-256 (hex) of the tool name and its arguments as stable JSON (keys sorted at every depth), so that the
 * same arguments in another key order hash alike. Pass the arguments without the idempotency key.
 */
export function hashArguments(tool: string, args: unknown): string {
  const text = stringify({ tool, args }) ?? 'undefined';
  return createHash('sha256').update(text).digest('hex');
}
