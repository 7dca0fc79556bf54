/**
 * The board as an OAuth 2.1 authorization server, driven by the official v1 SDK client with an
 * OAuthClientProvider (as desktop hosts use it) and by raw HTTP: discovery from the 401, dynamic registration,
 * PKCE, sign-in and consent pages, tokens bound to the board, refresh with rotation, revocation, assistants,
 * denial, CSRF, and no token in any log.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { startTestBoard, textOf, type TestBoard } from '../apps/board/src/testing/board-host.ts';
import { CookieJar, driveConsent, type ConsentChoice } from '../apps/board/src/testing/consent-driver.ts';
import { MemoryOAuthProvider } from './oauth-v1-provider.ts';

const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'http://127.0.0.1:9/callback';

let tb: TestBoard;

beforeEach(async () => {
  tb = await startTestBoard({ oauth: { accessTokenTtlSeconds: 2 } });
  await tb.board.accounts.setPassword(tb.members.owner.id, PASSWORD);
  await tb.board.accounts.setPassword(tb.members.maintainer.id, PASSWORD);
});
afterEach(async () => {
  await tb.close();
});

/** Connects the v1 SDK client; on the first 401 drives the pages with `choice` and finishes the sign-in. */
async function signIn(provider: MemoryOAuthProvider, choice: ConsentChoice) {
  const first = new StreamableHTTPClientTransport(new URL(tb.url), { authProvider: provider });
  const client = new Client({ name: 'v1-oauth-test', version: '1.0.0' });
  await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  const authorizationUrl = provider.authorizationUrls.at(-1);
  if (authorizationUrl === undefined) throw new Error('the SDK did not start a sign-in');
  const outcome = await driveConsent(authorizationUrl, choice);
  if (outcome.kind !== 'redirect')
    throw new Error(`the pages ended on HTTP ${outcome.status}: ${outcome.html}`);
  const code = outcome.url.searchParams.get('code');
  if (code === null) return { outcome, client: undefined };
  await first.finishAuth(code);
  const connected = new Client({ name: 'v1-oauth-test', version: '1.0.0' });
  await connected.connect(new StreamableHTTPClientTransport(new URL(tb.url), { authProvider: provider }));
  return { outcome, client: connected };
}

async function whoami(client: Client) {
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  return {
    text: textOf(result),
    structured: result.structuredContent as Record<string, unknown> | undefined,
  };
}

describe('board OAuth with the v1 SDK client', () => {
  it('publishes RFC 8414 metadata with PKCE S256 only, CIMD, registration, revocation and board scopes; the resource metadata names it', async () => {
    const origin = new URL(tb.url).origin;
    const as = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(as['issuer']).toBe(origin);
    expect(as['code_challenge_methods_supported']).toEqual(['S256']);
    expect(as['response_types_supported']).toEqual(['code']);
    expect(as['client_id_metadata_document_supported']).toBe(true);
    expect(as['authorization_response_iss_parameter_supported']).toBe(true);
    expect(as['registration_endpoint']).toBe(`${origin}/oauth/register`);
    expect(as['revocation_endpoint']).toBe(`${origin}/oauth/revoke`);
    expect(as['scopes_supported']).toEqual(
      expect.arrayContaining(['board:read', 'tasks:write', 'board:manage', 'members:manage']),
    );
    const prm = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<
      string,
      unknown
    >;
    expect(prm['authorization_servers']).toEqual([origin]);
    expect(prm['resource']).toBe(tb.url);
  });

  it('signs in, approves as the member, calls whoami, refreshes after expiry without a new sign-in, and is refused after the grant is revoked', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT);
    const { outcome, client } = await signIn(provider, { login: tb.members.owner.id, password: PASSWORD });
    expect(outcome.url.searchParams.get('iss')).toBe(new URL(tb.url).origin);
    if (client === undefined) throw new Error('no client');
    const me = await whoami(client);
    expect(me.text).toContain(tb.members.owner.id);
    expect(me.structured).toMatchObject({ memberId: tb.members.owner.id, role: 'owner' });
    const firstTokens = provider.savedTokens.at(-1);
    expect(firstTokens?.refresh_token).toBeTruthy();

    // The access token lives 2 s: wait past it, the next call gets a 401 and the SDK refreshes on its own.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const again = await whoami(client);
    expect(again.structured).toMatchObject({ memberId: tb.members.owner.id });
    expect(provider.authorizationUrls).toHaveLength(1);
    const refreshed = provider.savedTokens.at(-1);
    expect(refreshed?.access_token).not.toBe(firstTokens?.access_token);
    expect(refreshed?.refresh_token).not.toBe(firstTokens?.refresh_token); // rotated

    // The rotated-out refresh token no longer works.
    const clientId = (provider.clientInformation() as { client_id: string }).client_id;
    const refreshWith = (refreshToken: string | undefined) =>
      fetch(`${new URL(tb.url).origin}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: refreshToken ?? '',
          client_id: clientId,
        }),
      });
    expect((await refreshWith(firstTokens?.refresh_token)).status).toBe(400);

    // Revoke the grant: the access token is refused at once and the refresh token is dead.
    const [grant] = await tb.board.grants.list();
    if (grant === undefined) throw new Error('no grant');
    expect(grant).toMatchObject({ memberId: tb.members.owner.id, approvedBy: tb.members.owner.id });
    const current = provider.savedTokens.at(-1);
    await tb.board.grants.revoke(grant.grantId);
    const raw = await fetch(tb.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${current?.access_token ?? ''}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toMatch(/invalid_token.*resource_metadata=/);
    const refresh = await refreshWith(current?.refresh_token);
    expect(refresh.status).toBe(400);
    expect(((await refresh.json()) as { error: string }).error).toBe('invalid_grant');
    // The SDK client: its call fails, and it is sent to sign in again.
    await expect(whoami(client)).rejects.toThrow();
    expect(provider.authorizationUrls).toHaveLength(2);
    await client.close();
  }, 30_000);

  it('approves a new assistant with a lower role; the assistant cannot exceed it', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT, 'Helper app');
    const { client } = await signIn(provider, {
      login: tb.members.owner.name,
      password: PASSWORD,
      assistant: { name: 'Helper bot', role: 'viewer' },
    });
    if (client === undefined) throw new Error('no client');
    const me = await whoami(client);
    expect(me.structured).toMatchObject({ name: 'Helper bot', kind: 'assistant', role: 'viewer' });
    const created = await client.callTool({ name: 'tasks_create', arguments: { title: 'Not allowed' } });
    expect(created.isError).toBe(true);
    expect(textOf(created)).toMatch(/tasks:create/);
    const [grant] = await tb.board.grants.list();
    expect(grant).toMatchObject({ approvedBy: tb.members.owner.id, clientName: 'Helper app' });
    expect(grant?.memberId).not.toBe(tb.members.owner.id);
    await client.close();
  });

  it('refuses an assistant role above the approver and creates no member', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT);
    const first = new StreamableHTTPClientTransport(new URL(tb.url), { authProvider: provider });
    await expect(new Client({ name: 'x', version: '1' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const before = (await tb.board.services.members.list()).length;
    const outcome = await driveConsent(provider.authorizationUrls[0] ?? '', {
      login: tb.members.maintainer.id,
      password: PASSWORD,
      assistant: { name: 'Too strong', role: 'owner' },
    });
    expect(outcome).toMatchObject({ kind: 'page', status: 400 });
    if (outcome.kind === 'page')
      expect(outcome.html).toMatch(/The role &quot;owner&quot; is not one you can give/);
    expect((await tb.board.services.members.list()).length).toBe(before);
    expect(await tb.board.grants.list()).toEqual([]);
  });

  it('returns access_denied to the client when the member denies', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT);
    const { outcome, client } = await signIn(provider, {
      login: tb.members.owner.id,
      password: PASSWORD,
      decision: 'deny',
    });
    expect(client).toBeUndefined();
    expect(outcome.url.searchParams.get('error')).toBe('access_denied');
    expect(outcome.url.origin + outcome.url.pathname).toBe(REDIRECT);
    expect(await tb.board.grants.list()).toEqual([]);
  });

  it('refuses a consent POST without the page token and approves nothing', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT);
    const first = new StreamableHTTPClientTransport(new URL(tb.url), { authProvider: provider });
    await expect(new Client({ name: 'x', version: '1' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const outcome = await driveConsent(provider.authorizationUrls[0] ?? '', {
      login: tb.members.owner.id,
      password: PASSWORD,
      omitCsrf: true,
    });
    expect(outcome).toMatchObject({ kind: 'page', status: 403 });
    if (outcome.kind === 'page') expect(outcome.html).toMatch(/no CSRF token/);
    expect(await tb.board.grants.list()).toEqual([]);
  });

  it('signs in with a one-time link the CLI prints, which works only once', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT);
    const first = new StreamableHTTPClientTransport(new URL(tb.url), { authProvider: provider });
    await expect(new Client({ name: 'x', version: '1' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const jar = new CookieJar();
    // The browser reaches the sign-in page (an empty form is refused), then the person opens the link there.
    expect(await driveConsent(provider.authorizationUrls[0] ?? '', {}, jar)).toMatchObject({ status: 401 });
    const { secret } = await tb.board.accounts.createSigninLink(tb.members.viewer.id);
    const link = `${new URL(tb.url).origin}/signin?code=${secret}`;
    const outcome = await driveConsent(link, {}, jar);
    expect(outcome.kind).toBe('redirect');
    if (outcome.kind !== 'redirect') return;
    await first.finishAuth(outcome.url.searchParams.get('code') ?? '');
    const client = new Client({ name: 'x', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(tb.url), { authProvider: provider }));
    expect((await whoami(client)).structured).toMatchObject({
      memberId: tb.members.viewer.id,
      role: 'viewer',
    });
    await client.close();
    expect(await driveConsent(link, {}, new CookieJar())).toMatchObject({ kind: 'page', status: 400 });
  });

  it('refuses a wrong password on the sign-in page', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT);
    const first = new StreamableHTTPClientTransport(new URL(tb.url), { authProvider: provider });
    await expect(new Client({ name: 'x', version: '1' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    const outcome = await driveConsent(provider.authorizationUrls[0] ?? '', {
      login: tb.members.owner.id,
      password: 'wrong password here',
    });
    expect(outcome).toMatchObject({ kind: 'page', status: 401 });
  });

  it('keeps CLI board tokens working, refuses revoked members at once, and never logs a token', async () => {
    const provider = new MemoryOAuthProvider(REDIRECT);
    const { client } = await signIn(provider, { login: tb.members.maintainer.id, password: PASSWORD });
    if (client === undefined) throw new Error('no client');
    expect((await whoami(client)).structured).toMatchObject({
      memberId: tb.members.maintainer.id,
      role: 'maintainer',
    });
    const boardTokenClient = await tb.connect('modern', 'owner');
    expect(textOf(await boardTokenClient.callTool({ name: 'whoami', arguments: {} }))).toContain(
      tb.members.owner.id,
    );
    await boardTokenClient.close();

    await tb.board.services.members.revoke(tb.members.maintainer.id);
    await expect(whoami(client)).rejects.toThrow();

    const secrets = provider.savedTokens
      .flatMap((t) => [t.access_token, t.refresh_token ?? ''])
      .filter(Boolean);
    expect(secrets.length).toBeGreaterThan(0);
    const log = JSON.stringify(tb.logLines);
    const calls = JSON.stringify(await tb.board.callLog.recent({ limit: 1000 }));
    for (const secret of [...secrets, tb.tokens.owner]) {
      expect(log).not.toContain(secret);
      expect(calls).not.toContain(secret);
    }
    expect(calls).toContain(tb.members.maintainer.id); // the OAuth calls are in the call log as the member
  });

  it('binds tokens to the board: an authorization for another resource is refused', async () => {
    const origin = new URL(tb.url).origin;
    const jar = new CookieJar();
    const registered = (await (
      await fetch(`${origin}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: 'none',
          client_name: 'r',
        }),
      })
    ).json()) as { client_id: string };
    const url = new URL(`${origin}/oauth/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: REDIRECT,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: 'https://elsewhere.example/mcp',
      state: 's1',
    }).toString();
    const outcome = await driveConsent(url, { login: tb.members.owner.id, password: PASSWORD }, jar);
    expect(outcome.kind).toBe('redirect');
    if (outcome.kind === 'redirect') expect(outcome.url.searchParams.get('error')).toBe('invalid_target');
  });
});
