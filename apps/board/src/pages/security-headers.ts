/**
 * The security headers every board page is sent with: a strict Content-Security-Policy (no script at all, the
 * layout's one style by hash, forms only to this origin and to the extra targets a page names), no framing,
 * no sniffing, no referrer to other origins, no caching.
 *
 * @packageDocumentation
 */
import { PAGE_STYLE_HASH } from './html.ts';

/**
 * The headers for a page. `formActions` adds CSP `form-action` sources beyond `'self'`: browsers also apply
 * `form-action` to the redirects after a form is sent, so a page whose form ends in a redirect to another
 * origin (an OAuth client's redirect URI) must name it.
 */
export function pageSecurityHeaders(formActions: readonly string[] = []): Record<string, string> {
  const csp = [
    "default-src 'none'",
    `style-src ${PAGE_STYLE_HASH}`,
    "img-src 'self'",
    `form-action ${["'self'", ...formActions].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  };
}

/** The CSP `form-action` source for a redirect URI: its origin for http(s), its scheme for a custom scheme. */
export function formActionSource(redirectUri: string): string | undefined {
  const url = URL.parse(redirectUri);
  if (url === null) return undefined;
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? url.protocol : undefined;
}
