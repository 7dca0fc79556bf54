/**
 * The signed-in person of a browser: a signed cookie naming the member and when the sign-in ends. The member is
 * looked up again on every use, so a revoked member is signed out at once.
 *
 * @packageDocumentation
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readCookies, setCookie } from './cookies.ts';
import type { Signer } from './signed-value.ts';

/** The cookie holding the sign-in. */
export const SESSION_COOKIE = 'rb_session';

/** Reads, starts and ends browser sign-ins. */
export interface WebSessions {
  /** The member id of a valid, unexpired sign-in, else undefined. */
  memberOf(req: IncomingMessage): string | undefined;
  /** Signs the browser in as `memberId` for the session's lifetime. */
  start(res: ServerResponse, memberId: string): void;
  /** Signs the browser out. */
  end(res: ServerResponse): void;
}

/** Creates the sign-in cookies; `ttlSeconds` (default 8 h) bounds each sign-in. */
export function createWebSessions(
  signer: Signer,
  options: { secure: boolean; ttlSeconds?: number; now?: () => number },
): WebSessions {
  const ttl = options.ttlSeconds ?? 8 * 3600;
  const now = options.now ?? (() => Date.now());
  return {
    memberOf(req) {
      const raw = readCookies(req).get(SESSION_COOKIE);
      const value = raw === undefined ? undefined : signer.unsign(raw);
      if (value === undefined) return undefined;
      const [memberId, until] = value.split('|');
      if (memberId === undefined || until === undefined || Number(until) * 1000 <= now()) return undefined;
      return memberId;
    },
    start(res, memberId) {
      const until = Math.floor(now() / 1000) + ttl;
      setCookie(res, SESSION_COOKIE, signer.sign(`${memberId}|${until}`), {
        maxAge: ttl,
        secure: options.secure,
      });
    },
    end(res) {
      setCookie(res, SESSION_COOKIE, '', { maxAge: 0, secure: options.secure });
    },
  };
}
