/**
 * The plumbing of the board's server-rendered pages: escaping and layout, security headers, cookies, signed
 * values, CSRF tokens, browser sign-ins and form bodies. The sign-in and consent pages are built on it.
 *
 * @packageDocumentation
 */
export { escapeHtml, html, layout, SafeHtml, PAGE_STYLE, PAGE_STYLE_HASH } from './html.ts';
export { pageSecurityHeaders, formActionSource } from './security-headers.ts';
export { readCookies, setCookie, type CookieOptions } from './cookies.ts';
export { createSigner, type Signer } from './signed-value.ts';
export { createCsrf, CSRF_COOKIE, CSRF_FIELD, type Csrf, type CsrfVerdict } from './csrf.ts';
export { createWebSessions, SESSION_COOKIE, type WebSessions } from './web-session.ts';
export { readForm, MAX_FORM_BYTES, type FormBody } from './form-body.ts';
export { sendPage, sendProblem, redirect } from './page-response.ts';
export { signInFields } from './sign-in-fields.ts';
