/**
 * @recourse/client as an OAuth client of the board, with the person in headless Chromium: signIn discovers the
 * authorization server from the 401, registers, sends the person to the sign-in and consent pages, redeems the code
 * with PKCE and keeps the tokens in an owner-only file; calls refresh after expiry without a new sign-in; a revoked
 * grant fails the next call with a typed "sign in again" failure; a denial is reported. `recourse call --sign-in`
 * prints the URL to open, keeps its tokens in a 0600 file, reuses them, and signs in again when they are refused.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecourseClient, fileOAuthStateStore, signIn } from '@recourse/client';
import { run } from '../packages/client/src/cli/main.ts';
import { startTestBoard, type TestBoard } from '../apps/board/src/testing/board-host.ts';
import { consentInBrowser } from './browser-consent.ts';
import { launchChromium, type HeadlessBrowser } from './headless-chromium.ts';

const PASSWORD = 'correct horse battery staple';
const TTL_SECONDS = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let browser: HeadlessBrowser;
let tb: TestBoard;
let dir: string;

beforeAll(async () => {
  browser = await launchChromium();
  tb = await startTestBoard({ oauth: { accessTokenTtlSeconds: TTL_SECONDS } });
  await tb.board.accounts.setPassword(tb.members.owner.id, PASSWORD);
  await tb.board.accounts.setPassword(tb.members.maintainer.id, PASSWORD);
  dir = mkdtempSync(join(tmpdir(), 'recourse-client-oauth-'));
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await tb?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The person approves (or denies) in the browser and lands on the client's loopback callback. */
async function person(url: URL | string, login: string, deny = false): Promise<string> {
  const page = await browser.context.newPage();
  try {
    return await consentInBrowser(page, String(url), { login, password: PASSWORD, deny }, /\/callback\?/);
  } finally {
    await page.close();
  }
}

const storedTokens = (file: string): { access_token?: string; refresh_token?: string } =>
  (JSON.parse(readFileSync(file, 'utf8')) as { tokens?: { access_token?: string; refresh_token?: string } })
    .tokens ?? {};
const storedRefreshToken = (file: string): string | undefined => storedTokens(file).refresh_token;

async function revokeGrantOf(clientName: string): Promise<void> {
  const grants = (await tb.board.grants.list(true)).filter((g) => g.clientName === clientName);
  expect(grants.length).toBeGreaterThan(0);
  for (const grant of grants) await tb.board.grants.revoke(grant.grantId);
}

describe('@recourse/client signing in to the board', () => {
  it('signs in, keeps tokens in an owner-only file, calls as the member, refreshes, and asks to sign in again after revocation', async () => {
    const file = join(dir, 'library', 'board.json');
    const shown: URL[] = [];
    let consentPage = '';
    const provider = await signIn({
      serverUrl: tb.url,
      store: fileOAuthStateStore(file),
      clientName: 'recourse library test',
      onAuthorizationUrl: async (url) => {
        shown.push(url);
        consentPage = await person(url, tb.members.maintainer.id);
      },
    });
    expect(shown).toHaveLength(1);
    expect(shown[0]?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(shown[0]?.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(shown[0]?.searchParams.get('resource')).toBe(tb.url);
    expect(shown[0]?.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(consentPage).toContain('recourse library test');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'library')).mode & 0o777).toBe(0o700);
    const firstRefresh = storedRefreshToken(file);
    expect(firstRefresh).toBeTruthy();
    const secrets = [storedTokens(file).access_token, firstRefresh];

    const client = createRecourseClient({ target: { url: tb.url, auth: provider }, protocol: 'modern' });
    try {
      const me = await client.callTool('whoami', {});
      expect(me.result.structuredContent).toMatchObject({
        memberId: tb.members.maintainer.id,
        role: 'maintainer',
      });

      await sleep((TTL_SECONDS + 1) * 1000);
      const again = await client.callTool('whoami', {});
      expect(again.result.structuredContent).toMatchObject({ memberId: tb.members.maintainer.id });
      expect(storedRefreshToken(file)).not.toBe(firstRefresh); // refreshed, and the refresh token rotated
      secrets.push(storedTokens(file).access_token, storedRefreshToken(file));
      expect(shown).toHaveLength(1); // no new sign-in

      // A new process with the same file needs no browser either.
      const reused = await signIn({
        serverUrl: tb.url,
        store: fileOAuthStateStore(file),
        onAuthorizationUrl: (url) => void shown.push(url),
      });
      const other = createRecourseClient({ target: { url: tb.url, auth: reused }, protocol: 'legacy' });
      expect((await other.callTool('whoami', {})).result.structuredContent).toMatchObject({
        memberId: tb.members.maintainer.id,
      });
      await other.close();
      expect(shown).toHaveLength(1);

      await revokeGrantOf('recourse library test');
      const refused = await client.tryCallTool('whoami', {});
      expect(refused.ok).toBe(false);
      if (refused.ok) return;
      expect(refused.error).toMatchObject({
        kind: 'local',
        reason: 'sign_in_required',
        code: 'CALL_SIGN_IN_REQUIRED',
        httpStatus: 401,
        mayHaveReachedServer: false,
        retryable: false,
      });
      expect(refused.error.message).toMatch(/HTTP 401/);
      expect(refused.error.message).toMatch(/nothing was changed/);
      expect(refused.error.message).toMatch(/Sign in again/);
      expect(refused.error.attempts).toHaveLength(1); // not retried: retrying cannot help
      expect(storedRefreshToken(file)).toBeUndefined(); // the refused tokens are dropped

      // No access or refresh token reached the server log or the call log, though the calls are logged.
      const log = JSON.stringify(tb.logLines);
      const calls = JSON.stringify(await tb.board.callLog.recent({ limit: 1000 }));
      expect(calls).toContain(tb.members.maintainer.id);
      expect(secrets.filter((x) => typeof x === 'string' && x.length > 10)).toHaveLength(4);
      for (const secret of secrets) {
        expect(log).not.toContain(secret);
        expect(calls).not.toContain(secret);
      }
    } finally {
      await client.close();
    }
  }, 240_000);

  it('reports a denial with access_denied and stores no tokens', async () => {
    const file = join(dir, 'denied.json');
    await expect(
      signIn({
        serverUrl: tb.url,
        store: fileOAuthStateStore(file),
        clientName: 'denied library test',
        onAuthorizationUrl: async (url) => void (await person(url, tb.members.owner.id, true)),
      }),
    ).rejects.toMatchObject({ name: 'SignInError', code: 'SIGN_IN_DENIED', message: /access_denied/ });
    expect(storedRefreshToken(file)).toBeUndefined();
  }, 120_000);
});

describe('recourse call --sign-in', () => {
  /** Runs the CLI in this process; a printed sign-in URL is opened in the browser by the owner. */
  async function cli(
    ...argv: string[]
  ): Promise<{ code: number; out: string; err: string; signIns: number }> {
    let out = '';
    let err = '';
    const signIns: Promise<string>[] = [];
    const code = await run(argv, {
      stdout: { write: (t: string) => (out += t) },
      stderr: {
        write: (t: string) => {
          err += t;
          const url = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(t)?.[1];
          if (url !== undefined) signIns.push(person(url, tb.members.owner.id));
        },
      },
      env: {},
    });
    await Promise.all(signIns);
    return { code, out, err, signIns: signIns.length };
  }

  it('prints the URL, keeps tokens in a 0600 file, reuses and refreshes them, and signs in again when refused', async () => {
    const file = join(dir, 'cli', 'tokens.json');
    const args = ['call', tb.url, 'whoami', '{}', '--auth-file', file];

    const first = await cli(...args, '--sign-in');
    expect(first.err).toMatch(/To sign in to .*, open this URL in your browser/);
    expect(first).toMatchObject({ code: 0, signIns: 1 });
    expect(first.out).toContain(tb.members.owner.id);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain(tb.tokens.owner);

    await sleep((TTL_SECONDS + 1) * 1000);
    const refreshed = await cli(...args);
    expect(refreshed).toMatchObject({ code: 0, signIns: 0 });
    expect(refreshed.out).toContain(tb.members.owner.id);

    await revokeGrantOf('recourse CLI');
    const refused = await cli(...args);
    expect(refused).toMatchObject({ code: 10, signIns: 0, out: '' });
    expect(refused.err).toMatch(/CALL_SIGN_IN_REQUIRED/);
    expect(refused.err).toMatch(/Sign in again \(recourse call --sign-in/);

    const back = await cli(...args, '--sign-in');
    expect(back).toMatchObject({ code: 0, signIns: 1 });

    await revokeGrantOf('recourse CLI');
    const again = await cli(...args, '--sign-in');
    expect(again.err).toMatch(/stored sign-in was refused and could not be refreshed; signing in again/);
    expect(again).toMatchObject({ code: 0, signIns: 1 });
    expect(again.out).toContain(tb.members.owner.id);
  }, 300_000);
});
