/**
 * Interactive sign-in for command-line and desktop programs: listens on a loopback port for the authorization
 * server's redirect, lets the SDK's auth support discover, register and build the authorization URL (PKCE),
 * hands that URL to the application to show, waits for the browser to come back, checks `state` and `iss` and
 * redeems the code. The tokens land in the application's store; refreshing later needs no browser.
 *
 * @packageDocumentation
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { auth, extractWWWAuthenticateParams, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { createOAuthClientProvider } from './oauth-client-provider.ts';
import type { OAuthStateStore } from './oauth-state-store.ts';

/** Options of {@link signIn}. */
export interface SignInOptions {
  /** The MCP server's URL (the protected resource). */
  readonly serverUrl: string | URL;
  readonly store: OAuthStateStore;
  /** Shows the authorization URL to the person. */
  onAuthorizationUrl(url: URL): void | Promise<void>;
  /** The name on the consent page (default `recourse`). */
  readonly clientName?: string;
  /** This client's metadata document URL (https), used as its client id where supported. */
  readonly clientMetadataUrl?: string;
  /** How long to wait for the browser to come back (default 5 minutes). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** Thrown by {@link signIn}; `code` says what went wrong. */
export class SignInError extends Error {
  override readonly name = 'SignInError';
  constructor(
    readonly code: 'SIGN_IN_DENIED' | 'SIGN_IN_TIMEOUT' | 'SIGN_IN_INVALID_CALLBACK' | 'SIGN_IN_ABORTED',
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;

/** Listens on 127.0.0.1 (the port of the stored redirect URL when it is free, else any) for `/callback`. */
async function listen(preferred: number): Promise<{ server: Server; port: number }> {
  for (const port of preferred > 0 ? [preferred, 0] : [0]) {
    const server = createServer();
    const ok = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (ok) return { server, port: (server.address() as AddressInfo).port };
  }
  throw new Error('No loopback port is free for the sign-in callback.');
}

/**
 * What the server's 401 says (RFC 6750 / RFC 9728 `WWW-Authenticate`): where its protected-resource metadata is and
 * which scope it wants. An unauthenticated MCP request draws it; a server that answers otherwise names nothing.
 */
async function challengeOf(serverUrl: string | URL): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  const response = await fetch(serverUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'sign-in', method: 'ping' }),
  });
  await response.body?.cancel();
  if (response.status !== 401) return {};
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return {
    ...(resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl }),
    ...(scope === undefined ? {} : { scope }),
  };
}

/**
 * Signs in to the server at `serverUrl` and returns the provider to pass as the target's `auth`. When the store
 * already holds tokens it returns at once, without a browser or a request: the SDK sends the access token, refreshes
 * it on a 401, and when the refresh is refused drops the tokens and fails the call with `CALL_SIGN_IN_REQUIRED`, so
 * that the next `signIn` asks the person again. Throws {@link SignInError} when the
 * person denies (`SIGN_IN_DENIED`), does not come back in time (`SIGN_IN_TIMEOUT`), the callback does not match
 * (`SIGN_IN_INVALID_CALLBACK`), or `signal` fires (`SIGN_IN_ABORTED`); nothing is stored then.
 */
export async function signIn(options: SignInOptions): Promise<OAuthClientProvider> {
  const stored = await options.store.load();
  const common = {
    store: options.store,
    ...(options.clientName === undefined ? {} : { clientName: options.clientName }),
    ...(options.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: options.clientMetadataUrl }),
  };
  // What the calls use afterwards: it sends the access token and refreshes it on a 401, and never shows a sign-in
  // URL (nobody listens for its callback any more). When the SDK needs a new authorization (a refused refresh, a
  // 403 asking for more scope) it marks the store so that the next signIn asks the person, for the scope the SDK
  // asked for, and discovers afresh (the authorization server may have changed); the call fails as
  // CALL_SIGN_IN_REQUIRED.
  const forCalls = (redirectUrl: string): OAuthClientProvider =>
    createOAuthClientProvider({
      ...common,
      redirectUrl,
      onAuthorizationUrl: async (url) => {
        const current = { ...((await options.store.load()) ?? {}) };
        delete current.discovery;
        const scope = url.searchParams.get('scope');
        await options.store.save({ ...current, reauthorize: scope === null ? {} : { scope } });
      },
    });
  if (
    stored?.tokens?.access_token !== undefined &&
    stored.redirectUrl !== undefined &&
    stored.reauthorize === undefined
  )
    return forCalls(stored.redirectUrl);
  const challenge = await challengeOf(options.serverUrl);
  const scope = stored?.reauthorize?.scope ?? challenge.scope;
  const discovery = {
    serverUrl: options.serverUrl,
    ...(challenge.resourceMetadataUrl === undefined
      ? {}
      : { resourceMetadataUrl: challenge.resourceMetadataUrl }),
    ...(scope === undefined ? {} : { scope }),
  };
  const storedPort = stored?.redirectUrl === undefined ? 0 : Number(new URL(stored.redirectUrl).port);
  const { server, port } = await listen(storedPort);
  const state = randomBytes(16).toString('base64url');
  const redirectUrl = `http://127.0.0.1:${port}/callback`;
  let authorizationUrl: URL | undefined;
  const provider = createOAuthClientProvider({
    ...common,
    redirectUrl,
    onAuthorizationUrl: (url) => {
      authorizationUrl = url;
      return options.onAuthorizationUrl(url);
    },
  });
  const withState: OAuthClientProvider = Object.assign(Object.create(provider) as OAuthClientProvider, {
    state: () => state,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    const callback = new Promise<URLSearchParams>((resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new SignInError(
              'SIGN_IN_TIMEOUT',
              `Nobody came back from the sign-in page within ${Math.round((options.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s; run the sign-in again.`,
            ),
          ),
        options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      );
      options.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new SignInError('SIGN_IN_ABORTED', 'The sign-in was interrupted; nothing was stored.'));
      });
      server.on('request', (req, res) => {
        const url = new URL(req.url ?? '/', redirectUrl);
        if (url.pathname !== '/callback') {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('Sign-in finished; you can close this tab and go back to the terminal.');
        clearTimeout(timer);
        resolve(url.searchParams);
      });
    });
    callback.catch(() => undefined);
    const first = await auth(withState, discovery);
    if (first === 'AUTHORIZED') {
      const signedIn = { ...((await options.store.load()) ?? {}) };
      delete signedIn.reauthorize;
      await options.store.save(signedIn);
      return forCalls(redirectUrl);
    }
    if (authorizationUrl === undefined)
      throw new Error('The SDK asked for a sign-in but gave no authorization URL.');
    const params = await callback;
    const error = params.get('error');
    if (error !== null)
      throw new SignInError(
        'SIGN_IN_DENIED',
        `The authorization server answered ${error}${params.get('error_description') ? ` (${params.get('error_description')})` : ''}; nothing was stored. Sign in again to approve.`,
      );
    const code = params.get('code');
    if (code === null || params.get('state') !== state)
      throw new SignInError(
        'SIGN_IN_INVALID_CALLBACK',
        'The sign-in callback carried no code or a different state, so it was not from this sign-in; nothing was stored.',
      );
    const iss = params.get('iss');
    await auth(withState, {
      ...discovery,
      authorizationCode: code,
      ...(iss === null ? {} : { iss }),
    });
    const signedIn = { ...((await options.store.load()) ?? {}) };
    delete signedIn.reauthorize;
    await options.store.save(signedIn);
    return forCalls(redirectUrl);
  } finally {
    clearTimeout(timer);
    server.closeAllConnections();
    server.close();
  }
}
