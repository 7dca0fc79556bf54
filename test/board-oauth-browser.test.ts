/**
 * Real clients sign in to the board in a real browser: the official v1 SDK client with an OAuthClientProvider
 * (the way desktop and IDE hosts wire it) and `mcp-remote` driven over stdio, each sent through the board's
 * sign-in and consent pages in headless Chromium. They call whoami as the approved member, refresh after the
 * access token expires without a new sign-in, and are refused after the grant is revoked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { startTestBoard, textOf, type TestBoard } from '../apps/board/src/testing/board-host.ts';
import { consentInBrowser } from './browser-consent.ts';
import { launchChromium, type HeadlessBrowser } from './headless-chromium.ts';
import { MemoryOAuthProvider } from './oauth-v1-provider.ts';

const PASSWORD = 'correct horse battery staple';
const TTL_SECONDS = 3;

let browser: HeadlessBrowser;
let tb: TestBoard;

beforeAll(async () => {
  browser = await launchChromium();
  tb = await startTestBoard({ oauth: { accessTokenTtlSeconds: TTL_SECONDS } });
  await tb.board.accounts.setPassword(tb.members.owner.id, PASSWORD);
  await tb.board.accounts.setPassword(tb.members.maintainer.id, PASSWORD);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await tb?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loopback redirect target like a desktop host's: records the query of each callback. */
async function callbackServer(): Promise<{ url: string; hits: URL[]; server: Server }> {
  const hits: URL[] = [];
  const server = createServer((req, res) => {
    const hit = new URL(req.url ?? '/', 'http://127.0.0.1');
    // Only the redirect counts: the browser also asks for /favicon.ico after the page loads.
    if (hit.pathname !== '/callback') return void res.writeHead(404).end();
    hits.push(hit);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('Signed in; you can close this tab.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, hits, server };
}

describe('the v1 SDK client with an OAuthClientProvider, signed in through headless Chromium', () => {
  it('approves as the member, calls whoami, refreshes after expiry, and is refused after revocation', async () => {
    const callback = await callbackServer();
    const provider = new MemoryOAuthProvider(callback.url, 'Desktop host (v1 SDK)');
    const page = await browser.context.newPage();
    try {
      const first = new StreamableHTTPClientTransport(new URL(tb.url), { authProvider: provider });
      await expect(new Client({ name: 'desktop', version: '1' }).connect(first)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      const shown = await consentInBrowser(
        page,
        provider.authorizationUrls[0]?.href ?? '',
        { login: tb.members.owner.id, password: PASSWORD },
        /\/callback\?/,
      );
      expect(shown).toContain('Desktop host (v1 SDK)');
      expect(shown).toContain(callback.url);
      expect(shown).toContain('board:read');
      const code = callback.hits[0]?.searchParams.get('code');
      expect(callback.hits[0]?.searchParams.get('iss')).toBe(new URL(tb.url).origin);
      await first.finishAuth(code ?? '');

      const client = new Client({ name: 'desktop', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(tb.url), { authProvider: provider }));
      const me = await client.callTool({ name: 'whoami', arguments: {} });
      expect(me.structuredContent).toMatchObject({ memberId: tb.members.owner.id, role: 'owner' });

      await sleep((TTL_SECONDS + 1) * 1000);
      const again = await client.callTool({ name: 'whoami', arguments: {} });
      expect(textOf(again)).toContain(tb.members.owner.id);
      expect(provider.authorizationUrls).toHaveLength(1); // refreshed, no new sign-in
      expect(provider.savedTokens.length).toBeGreaterThanOrEqual(2);

      const grant = (await tb.board.grants.list(true)).find((g) => g.clientName === 'Desktop host (v1 SDK)');
      await tb.board.grants.revoke(grant?.grantId ?? '');
      await expect(client.callTool({ name: 'whoami', arguments: {} })).rejects.toThrow();
      expect(provider.authorizationUrls).toHaveLength(2); // the refresh failed: sent to sign in again
      await client.close();
    } finally {
      await page.close();
      callback.server.close();
    }
  }, 180_000);

  it('approves a viewer assistant that cannot write, and returns access_denied on deny', async () => {
    const callback = await callbackServer();
    const page = await browser.context.newPage();
    try {
      const provider = new MemoryOAuthProvider(callback.url, 'Assistant host');
      const first = new StreamableHTTPClientTransport(new URL(tb.url), { authProvider: provider });
      await expect(new Client({ name: 'a', version: '1' }).connect(first)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      await consentInBrowser(
        page,
        provider.authorizationUrls[0]?.href ?? '',
        {
          login: tb.members.maintainer.id,
          password: PASSWORD,
          assistant: { name: 'Browser bot', role: 'viewer' },
        },
        /\/callback\?/,
      );
      await first.finishAuth(callback.hits[0]?.searchParams.get('code') ?? '');
      const client = new Client({ name: 'a', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(tb.url), { authProvider: provider }));
      expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toMatchObject({
        name: 'Browser bot',
        kind: 'assistant',
        role: 'viewer',
      });
      const write = await client.callTool({ name: 'tasks_create', arguments: { title: 'x' } });
      expect(write.isError).toBe(true);
      await client.close();

      const denier = new MemoryOAuthProvider(callback.url, 'Denied host');
      const denied = new StreamableHTTPClientTransport(new URL(tb.url), { authProvider: denier });
      await expect(new Client({ name: 'd', version: '1' }).connect(denied)).rejects.toBeInstanceOf(
        UnauthorizedError,
      );
      // The browser is still signed in from the first approval, so it goes straight to the consent page.
      await page.goto(denier.authorizationUrls[0]?.href ?? '');
      await Promise.all([page.waitForURL(/\/callback\?/), page.click('button[value=deny]')]);
      expect(callback.hits.at(-1)?.searchParams.get('error')).toBe('access_denied');
    } finally {
      await page.close();
      callback.server.close();
    }
  }, 180_000);
});

describe('mcp-remote over stdio, signed in through headless Chromium', () => {
  it('approves, calls whoami as the member, refreshes after expiry, and must sign in again after revocation', async () => {
    const require = createRequire(import.meta.url);
    const proxy = join(require.resolve('mcp-remote/package.json'), '..', 'dist', 'proxy.js');
    const configDir = mkdtempSync(join(tmpdir(), 'recourse-mcp-remote-'));
    const port = await freePort();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        proxy,
        tb.url,
        String(port),
        '--host',
        '127.0.0.1',
        '--auth-timeout',
        '5',
        '--transport',
        'http-only',
      ],
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: configDir,
        MCP_REMOTE_CONFIG_DIR: configDir,
        BROWSER: 'true',
      },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const authUrls = () =>
      [...stderr.matchAll(/(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/g)].map((m) => m[1] ?? '');
    const client = new Client({ name: 'desktop-stdio', version: '1' });
    const page = await browser.context.newPage();
    try {
      const before = new Set((await tb.board.grants.list()).map((g) => g.grantId));
      const connecting = client.connect(transport);
      connecting.catch(() => undefined); // awaited below; a failure before that must not go unhandled
      for (let i = 0; i < 600 && authUrls().length === 0; i++) await sleep(100);
      expect(authUrls()).toHaveLength(1);
      const shown = await consentInBrowser(
        page,
        authUrls()[0] ?? '',
        { login: tb.members.owner.id, password: PASSWORD },
        /oauth\/callback/,
      );
      expect(shown).toContain(`http://127.0.0.1:${port}/oauth/callback`);
      await connecting;
      const me = await client.callTool({ name: 'whoami', arguments: {} });
      expect(me.structuredContent).toMatchObject({ memberId: tb.members.owner.id });

      await sleep((TTL_SECONDS + 1) * 1000);
      expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toContain(tb.members.owner.id);
      expect(authUrls()).toHaveLength(1); // refreshed without a new sign-in

      const grant = (await tb.board.grants.list(true)).find((g) => !before.has(g.grantId));
      expect(shown).toContain(grant?.clientName ?? 'no new grant');
      await tb.board.grants.revoke(grant?.grantId ?? '');
      const after = await client.callTool({ name: 'whoami', arguments: {} }).then(
        (result) => ({ ok: result.isError !== true }),
        () => ({ ok: false }),
      );
      expect(after.ok).toBe(false);
      expect(authUrls().length).toBeGreaterThanOrEqual(2); // sent to sign in again
    } finally {
      await page.close();
      await client.close().catch(() => undefined);
      rmSync(configDir, { recursive: true, force: true });
    }
  }, 240_000);
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
