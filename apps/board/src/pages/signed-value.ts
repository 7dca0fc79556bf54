/**
 * Values signed with the server's secret (HMAC-SHA256): what the board puts in cookies and forms so that a
 * browser cannot forge or alter them.
 *
 * @packageDocumentation
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Signs and checks values with one secret. */
export interface Signer {
  /** `value.signature`. */
  sign(value: string): string;
  /** The value when `signed` carries a valid signature, else undefined. */
  unsign(signed: string): string | undefined;
  /** The bare signature of `value` (base64url), e.g. a token derived from it. */
  mac(value: string): string;
  /** Constant-time comparison of two strings. */
  same(a: string, b: string): boolean;
}

/** Creates a {@link Signer} over `secret`. */
export function createSigner(secret: string): Signer {
  const mac = (value: string): string => createHmac('sha256', secret).update(value).digest('base64url');
  const same = (a: string, b: string): boolean => {
    const x = Buffer.from(a);
    const y = Buffer.from(b);
    return x.length === y.length && timingSafeEqual(x, y);
  };
  return {
    mac,
    same,
    sign: (value) => `${value}.${mac(value)}`,
    unsign(signed) {
      const at = signed.lastIndexOf('.');
      if (at <= 0) return undefined;
      const value = signed.slice(0, at);
      return same(signed.slice(at + 1), mac(value)) ? value : undefined;
    },
  };
}
