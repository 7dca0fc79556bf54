/**
 * CSRF protection for the board's forms: a random per-browser cookie, and in each form a token derived from it
 * and from what the form is for (HMAC with the server's secret). A POST is accepted only when its token matches
 * its cookie and purpose, and when its `Origin` (sent by every current browser on POST) is the page's own.
 *
 * @packageDocumentation
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readCookies, setCookie } from './cookies.ts';
import type { Signer } from './signed-value.ts';

/** The cookie holding the browser's CSRF secret. */
export const CSRF_COOKIE = 'rb_csrf';
/** The form field carrying the token. */
export const CSRF_FIELD = 'csrf';

/** Why a POST was refused, or ok. */
export type CsrfVerdict = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** Issues and checks CSRF tokens. */
export interface Csrf {
  /** The token for a form with `purpose` (e.g. `consent:<uid>`); sets the browser's cookie when it has none. */
  issue(req: IncomingMessage, res: ServerResponse, purpose: string): string;
  /** Checks a POST's token (from its form) against its cookie, its purpose and its Origin. */
  verify(req: IncomingMessage, token: string | undefined, purpose: string): CsrfVerdict;
}

/** Creates the CSRF guard; `origin` is the pages' own origin, `secure` marks cookies Secure. */
export function createCsrf(signer: Signer, options: { origin: string; secure: boolean }): Csrf {
  return {
    issue(req, res, purpose) {
      let secret = readCookies(req).get(CSRF_COOKIE);
      if (secret === undefined || !/^[A-Za-z0-9_-]{32,64}$/.test(secret)) {
        secret = randomBytes(24).toString('base64url');
        setCookie(res, CSRF_COOKIE, secret, { secure: options.secure });
      }
      return signer.mac(`${secret}|${purpose}`);
    },
    verify(req, token, purpose) {
      const origin = req.headers.origin;
      if (origin !== undefined && origin !== options.origin)
        return { ok: false, reason: `the form was sent from another origin (${origin})` };
      const secret = readCookies(req).get(CSRF_COOKIE);
      if (secret === undefined) return { ok: false, reason: 'the browser sent no CSRF cookie' };
      if (token === undefined || token === '') return { ok: false, reason: 'the form carried no CSRF token' };
      return signer.same(token, signer.mac(`${secret}|${purpose}`))
        ? { ok: true }
        : { ok: false, reason: 'the CSRF token does not match this page' };
    },
  };
}
