/**
 * Sending board pages: HTML with the security headers, redirects, and refusals that still render a page.
 *
 * @packageDocumentation
 */
import type { ServerResponse } from 'node:http';
import { html, layout, type SafeHtml } from './html.ts';
import { pageSecurityHeaders } from './security-headers.ts';

/** Sends `body` in the layout with status `status` (default 200) and the security headers. */
export function sendPage(
  res: ServerResponse,
  title: string,
  body: SafeHtml,
  options: { status?: number; formActions?: readonly string[] } = {},
): void {
  const text = layout(title, body);
  res.writeHead(options.status ?? 200, {
    ...pageSecurityHeaders(options.formActions),
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Sends a page that says what went wrong and what to do next. */
export function sendProblem(
  res: ServerResponse,
  status: number,
  title: string,
  ...sentences: string[]
): void {
  sendPage(res, title, html`<p class="error" role="alert">${sentences.join(' ')}</p>`, { status });
}

/** Redirects with 303 (a GET after a POST) and the security headers. */
export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { ...pageSecurityHeaders(), location });
  res.end();
}
