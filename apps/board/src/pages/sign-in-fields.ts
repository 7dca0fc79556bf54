/**
 * The fields of a password sign-in form, shared by the consent flow's sign-in page and the board pages' one.
 *
 * @packageDocumentation
 */
import { CSRF_FIELD } from './csrf.ts';
import { html, type SafeHtml } from './html.ts';

/** The CSRF token, member id or name, and password fields, then the submit button. */
export function signInFields(csrfToken: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${csrfToken}" />
    <label for="login">Member id or name</label>
    <input id="login" name="login" autocomplete="username" required />
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required />
    <button type="submit">Sign in</button>`;
}
