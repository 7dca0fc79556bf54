/**
 * How a tool advertises, in its `tools/list` entry, that it honours an idempotency key: the server writes
 * the entry, the client reads it to know which argument makes a repeated call safe.
 *
 * @packageDocumentation
 */

/**
 * The `_meta` key of a listed tool that names the idempotency-key argument it honours, under our own
 * reverse-DNS prefix (MCP reserves `io.modelcontextprotocol/`).
 */
export const IDEMPOTENCY_META_KEY = 'dev.recourse/idempotency';

/** The entry under {@link IDEMPOTENCY_META_KEY}, e.g. `{ argument: 'idempotencyKey', ttlMs: 86_400_000 }`. */
export interface IdempotencyMeta {
  /** The argument that carries the key. */
  readonly argument: string;
  /** How long the server remembers a key and replays its first result, in milliseconds. */
  readonly ttlMs?: number;
}

/**
 * The idempotency-key argument a listed tool's `_meta` advertises, or `undefined` when it advertises none
 * (no entry, or an entry without a non-empty string `argument`). Never throws.
 */
export function idempotencyArgumentOf(meta: unknown): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const entry = (meta as Record<string, unknown>)[IDEMPOTENCY_META_KEY];
  if (typeof entry !== 'object' || entry === null) return undefined;
  const argument = (entry as { argument?: unknown }).argument;
  return typeof argument === 'string' && argument !== '' ? argument : undefined;
}
