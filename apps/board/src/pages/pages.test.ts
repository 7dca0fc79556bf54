import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  createCsrf,
  createSigner,
  createWebSessions,
  formActionSource,
  html,
  pageSecurityHeaders,
} from './index.ts';

const signer = createSigner('test-secret');
const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
function response() {
  const headers = new Map<string, unknown>();
  return {
    res: {
      getHeader: (name: string) => headers.get(name),
      setHeader: (name: string, value: unknown) => void headers.set(name, value),
    } as unknown as ServerResponse,
    cookies: () => (headers.get('set-cookie') as string[] | undefined) ?? [],
  };
}

describe('page plumbing', () => {
  it('escapes interpolated text and keeps safe fragments', () => {
    const name = '<script>alert("x")</script>';
    const tag = html; // not formatted as HTML by Prettier, so the text stays exactly as written
    expect(tag`<p>${name}</p>${tag`<b>ok</b>`}${['<i>', 1]}`.value).toBe(
      '<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p><b>ok</b>&lt;i&gt;1',
    );
  });

  it('sends a CSP with no script, no framing, and form-action limited to self plus named targets', () => {
    const headers = pageSecurityHeaders(['http://127.0.0.1:4000']);
    expect(headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(headers['content-security-policy']).toMatch(/form-action 'self' http:\/\/127\.0\.0\.1:4000/);
    expect(headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(headers['content-security-policy']).not.toMatch(/script-src/);
    expect(headers['x-frame-options']).toBe('DENY');
    expect(formActionSource('cursor://anysphere/callback')).toBe('cursor:');
    expect(formActionSource('http://localhost:33418/cb?x=1')).toBe('http://localhost:33418');
  });

  it('accepts a CSRF token only with its cookie, its purpose and the own origin', () => {
    const csrf = createCsrf(signer, { origin: 'http://127.0.0.1:3333', secure: false });
    const { res, cookies } = response();
    const token = csrf.issue(request({}), res, 'consent:u1');
    const cookie = cookies()[0]?.split(';')[0] ?? '';
    const ok = request({ cookie, origin: 'http://127.0.0.1:3333' });
    expect(csrf.verify(ok, token, 'consent:u1')).toEqual({ ok: true });
    expect(csrf.verify(ok, token, 'consent:u2')).toMatchObject({ ok: false });
    expect(csrf.verify(ok, undefined, 'consent:u1')).toMatchObject({ ok: false, reason: /no CSRF token/ });
    expect(csrf.verify(request({ origin: 'http://127.0.0.1:3333' }), token, 'consent:u1')).toMatchObject({
      ok: false,
      reason: /no CSRF cookie/,
    });
    expect(
      csrf.verify(request({ cookie, origin: 'http://evil.example' }), token, 'consent:u1'),
    ).toMatchObject({
      ok: false,
      reason: /another origin/,
    });
  });

  it('reads back a signed sign-in until it expires, and refuses a forged one', () => {
    let now = 1_000_000;
    const sessions = createWebSessions(signer, { secure: false, ttlSeconds: 60, now: () => now });
    const { res, cookies } = response();
    sessions.start(res, 'm_1');
    const cookie = cookies()[0]?.split(';')[0] ?? '';
    expect(sessions.memberOf(request({ cookie }))).toBe('m_1');
    expect(sessions.memberOf(request({ cookie: cookie.replace('m_1', 'm_2') }))).toBeUndefined();
    now += 61_000;
    expect(sessions.memberOf(request({ cookie }))).toBeUndefined();
  });
});
