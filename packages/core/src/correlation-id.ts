/**
 * Correlation ids: the only trace of an internal fault that leaves the server.
 *
 * @packageDocumentation
 */

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Number of random base62 characters after the `c_` prefix (about 131 bits). */
const LENGTH = 22;
/** Largest multiple of 62 below 256: bytes at or above it are rejected to keep the draw uniform. */
const LIMIT = 248;

/** Crypto-random bytes drawn in blocks: one `getRandomValues` call serves about 150 ids instead of one. */
const pool = new Uint8Array(4096);
let poolNext = pool.length;

function randomByte(): number {
  if (poolNext === pool.length) {
    crypto.getRandomValues(pool);
    poolNext = 0;
  }
  const byte = pool[poolNext]!;
  pool[poolNext] = 0; // a byte is used once, and does not stay in memory after use
  poolNext += 1;
  return byte;
}

/**
 * A fresh correlation id: `c_` followed by 22 crypto-random base62 characters, e.g. `c_7Hq2kP0…`.
 * Unguessable and safe to show to a model or a person; the server logs the full error under it.
 */
export function newCorrelationId(): string {
  let id = 'c_';
  while (id.length < LENGTH + 2) {
    const byte = randomByte();
    if (byte < LIMIT) id += ALPHABET[byte % 62];
  }
  return id;
}

/** True for a string shaped like an id from {@link newCorrelationId} (`c_` and 16 or more base62 characters). */
export function isCorrelationId(value: unknown): value is string {
  return typeof value === 'string' && /^c_[0-9A-Za-z]{16,64}$/.test(value);
}
