/**
 * The one-time sign-in link pages (`/signin?code=…`): the link opens a page with one button, and the button's
 * form (CSRF-protected) uses the link once and starts a browser session for its member. A link followed in the
 * middle of an OAuth sign-in goes back to that sign-in; otherwise the page offers the board.
 *
 * @packageDocumentation
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import {
  CSRF_FIELD,
  html,
  redirect,
  sendPage,
  sendProblem,
  type Csrf,
  type WebSessions,
} from '../pages/index.ts';
import type { MemberAccounts } from './member-accounts.ts';

/** What the sign-in link pages need. */
export interface SigninLinkPageDeps {
  readonly csrf: Csrf;
  readonly sessions: WebSessions;
  readonly accounts: MemberAccounts;
  readonly log: Logger;
  /** Reads a form and checks its CSRF token; answers the refusal itself and resolves undefined. */
  checkForm(req: IncomingMessage, res: ServerResponse, purpose: string): Promise<URLSearchParams | undefined>;
  /** Where to send the browser after signing in, when it was in the middle of something (else undefined). */
  afterSignin(req: IncomingMessage): string | undefined;
}

const PURPOSE = 'signin-link';

/** Creates the GET and POST handlers of `/signin`. */
export function createSigninLinkPages(deps: SigninLinkPageDeps) {
  const { csrf, sessions, accounts, log } = deps;
  return {
    /** The page a link opens: one button that signs in. */
    page(req: IncomingMessage, res: ServerResponse): void {
      const code = new URL(req.url ?? '/', 'http://x').searchParams.get('code') ?? '';
      const token = csrf.issue(req, res, PURPOSE);
      sendPage(
        res,
        'Sign in with a one-time link',
        html`<p>This link signs you in to Recourse Board once, in this browser.</p>
          <form method="post" action="/signin">
            <input type="hidden" name="${CSRF_FIELD}" value="${token}" />
            <input type="hidden" name="code" value="${code}" />
            <button type="submit">Sign in</button>
          </form>`,
      );
    },

    /** Uses the link once and signs its member in. */
    async post(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const fields = await deps.checkForm(req, res, PURPOSE);
      if (fields === undefined) return;
      const member = await accounts.useSigninLink(fields.get('code') ?? '');
      if (member === undefined)
        return sendProblem(
          res,
          400,
          'Sign-in link refused',
          'This sign-in link is unknown, expired or already used, or its member was revoked.',
          'Ask the board owner for a new one (recourse-board members signin-link --member <id>); nothing was changed.',
        );
      sessions.start(res, member.id);
      log.info({ member: member.id }, 'signed in with a one-time link');
      const next = deps.afterSignin(req);
      if (next !== undefined) return redirect(res, next);
      return sendPage(
        res,
        'Signed in',
        html`<p>Signed in as <strong>${member.name}</strong>. <a href="/board">Open the board</a>.</p>
          <p>If an application asked you to sign in, go back to it and start its sign-in again.</p>`,
      );
    },
  };
}
