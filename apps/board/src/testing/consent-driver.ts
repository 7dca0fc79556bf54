/**
 * Test helper: goes through the board's sign-in and consent pages over plain HTTP the way a browser without
 * JavaScript does (cookies, redirects, forms with their CSRF token, an `Origin` header on every POST), from an
 * authorization URL to the redirect back to the client.
 *
 * @packageDocumentation
 */

/** What the person does on the pages. */
export interface ConsentChoice {
  /** Member id or name typed on the sign-in page (skipped when the browser is already signed in). */
  readonly login?: string;
  readonly password?: string;
  /** Approve (default) or deny on the consent page. */
  readonly decision?: 'approve' | 'deny';
  /** Approve as a new assistant member with this name and role, instead of as oneself. */
  readonly assistant?: { readonly name: string; readonly role: string };
  /** Leave the CSRF token out of the consent form (to show the refusal). */
  readonly omitCsrf?: boolean;
}

/** Where the pages ended: a redirect to the client, or a page the board answered with. */
export type DriveOutcome =
  | { readonly kind: 'redirect'; readonly url: URL }
  | { readonly kind: 'page'; readonly status: number; readonly html: string };

/** A cookie jar for one origin (paths ignored: sending a cookie to more paths is harmless here). */
export class CookieJar {
  private readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (gone || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

const field = (page: string, name: string): string | undefined =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1]?.replaceAll('&amp;', '&');

/** Follows the authorization URL through the pages; at most 20 steps. */
export async function driveConsent(
  authorizationUrl: string | URL,
  choice: ConsentChoice,
  jar: CookieJar = new CookieJar(),
): Promise<DriveOutcome> {
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  let method: 'GET' | 'POST' = 'GET';
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(method === 'POST' ? { origin, 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(body === undefined ? {} : { body: body.toString() }),
    });
    jar.take(res);
    if (res.status >= 300 && res.status < 400) {
      await res.body?.cancel();
      const next = new URL(res.headers.get('location') ?? '', url);
      if (next.origin !== origin) return { kind: 'redirect', url: next };
      url = next;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || action === undefined) return { kind: 'page', status: res.status, html };
    const csrf = field(html, 'csrf') ?? '';
    if (action.endsWith('/login')) {
      body = new URLSearchParams({ csrf, login: choice.login ?? '', password: choice.password ?? '' });
    } else if (action.endsWith('/confirm')) {
      body = new URLSearchParams(choice.omitCsrf === true ? {} : { csrf });
      if (choice.assistant !== undefined) {
        body.set('act', 'assistant');
        body.set('assistant_name', choice.assistant.name);
        body.set('assistant_role', choice.assistant.role);
      } else body.set('act', 'self');
      body.set('decision', choice.decision ?? 'approve');
    } else {
      body = new URLSearchParams({ csrf, code: field(html, 'code') ?? '' });
    }
    const target =
      choice.decision === 'deny' && action.endsWith('/confirm')
        ? action.replace(/\/confirm$/, '/deny')
        : action;
    url = new URL(target, url);
    method = 'POST';
  }
  throw new Error('the sign-in pages did not end within 20 steps');
}
