/**
 * The layout and security headers of the board's own pages (board, task, members, console): a navigation bar,
 * one same-origin stylesheet and one same-origin script for progressive enhancement. The Content-Security-Policy
 * allows nothing inline and nothing from another origin.
 *
 * @packageDocumentation
 */
import type { ServerResponse } from 'node:http';
import { html, pageSecurityHeaders, type SafeHtml } from '../pages/index.ts';
import type { Member } from '../domain/member.ts';

/** Where the board's pages live. */
export const BOARD_BASE = '/board';
/** The stylesheet and the script. */
export const ASSETS = { css: `${BOARD_BASE}/assets/board.css`, js: `${BOARD_BASE}/assets/board.js` } as const;

/** The headers of a board page: the page module's, with same-origin style, script and fetch added. */
export function boardPageHeaders(): Record<string, string> {
  const base = pageSecurityHeaders();
  const csp = [
    "default-src 'none'",
    "style-src 'self'",
    "script-src 'self'",
    "connect-src 'self'",
    "img-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return { ...base, 'content-security-policy': csp };
}

/** The navigation shown to a signed-in member; the console only to owners and maintainers. */
function nav(member: Member | undefined): SafeHtml {
  if (member === undefined) return html``;
  const consoleLink =
    member.role === 'owner' || member.role === 'maintainer'
      ? html`<li><a href="${BOARD_BASE}/console">Failure console</a></li>`
      : '';
  return html`<nav aria-label="Board">
    <ul>
      <li><a href="${BOARD_BASE}">Board</a></li>
      <li><a href="${BOARD_BASE}/new">New task</a></li>
      <li><a href="${BOARD_BASE}/members">Members</a></li>
      ${consoleLink}
    </ul>
    <p class="who">
      Signed in as <strong>${member.name}</strong> (${member.role})
      <a href="${BOARD_BASE}/signout">Sign out</a>
    </p>
  </nav>`;
}

/** Sends a board page. */
export function sendBoardPage(
  res: ServerResponse,
  title: string,
  member: Member | undefined,
  body: SafeHtml,
  status = 200,
): void {
  const text = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <title>${title} · Recourse Board</title>
        <link rel="stylesheet" href="${ASSETS.css}" />
        <script src="${ASSETS.js}" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header>${nav(member)}</header>
        <main id="main">
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`.value;
  res.writeHead(status, {
    ...boardPageHeaders(),
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** A refusal or error box with the exact text (role=alert, so screen readers announce it). */
export function alertBox(text: string, id = 'problem'): SafeHtml {
  return html`<div class="error" role="alert" id="${id}">
    ${text.split('\n').map((line) => html`<p>${line}</p>`)}
  </div>`;
}
