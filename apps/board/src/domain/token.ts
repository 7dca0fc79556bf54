/**
 * Bearer tokens of members, as stored: only the sha256 hash of a token is kept.
 *
 * @packageDocumentation
 */

/** A stored token. The token itself is never stored; `prefix` is its first characters, for display and revoking. */
export interface TokenRecord {
  readonly id: string;
  readonly memberId: string;
  /** Hex sha256 of the whole token. */
  readonly hash: string;
  /** The first 12 characters of the token, e.g. `rbt_Ab3dE5gH`. */
  readonly prefix: string;
  readonly createdAt: string;
  /** ISO 8601, or null when the token does not expire. */
  readonly expiresAt: string | null;
  readonly revokedAt: string | null;
}
