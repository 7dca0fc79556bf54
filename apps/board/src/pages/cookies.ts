/**
 * Reading and writing cookies for the board's pages (HttpOnly, SameSite=Lax, `Secure` when served over https).
 *
 * @packageDocumentation
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The cookies a request sent, by name (the first one wins when a name repeats). */
export function readCookies(req: IncomingMessage): Map<string, string> {
  const found = new Map<string, string>();
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    if (found.has(name)) continue;
    try {
      found.set(name, decodeURIComponent(pair.slice(at + 1).trim()));
    } catch {
      // A value that is not valid percent-encoding is ignored, as if the cookie were absent.
    }
  }
  return found;
}

/** Options of {@link setCookie}. */
export interface CookieOptions {
  readonly path?: string;
  /** Seconds; 0 deletes the cookie; absent makes a session cookie. */
  readonly maxAge?: number;
  readonly secure?: boolean;
}

/** Appends a `Set-Cookie` header (HttpOnly, SameSite=Lax). */
export function setCookie(
  res: ServerResponse,
  name: string,
  value: string,
  options: CookieOptions = {},
): void {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path ?? '/'}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.secure === true) parts.push('Secure');
  const previous = res.getHeader('set-cookie');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous : [String(previous)];
  res.setHeader('set-cookie', [...list, parts.join('; ')]);
}
