/**
 * Random identifiers for members, tokens and secrets.
 *
 * @packageDocumentation
 */
import { randomBytes } from 'node:crypto';

/** A short random id with a type prefix, e.g. `m_3kq9x7d2bz4w` (12 base32-ish lower-case characters). */
export function newId(prefix: string): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
  const bytes = randomBytes(12);
  let id = '';
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return `${prefix}_${id}`;
}
