/**
 * An OAuthClientProvider for the SDK's auth support (discovery from the 401, Client ID Metadata Documents or
 * dynamic registration, PKCE, refresh on 401), keeping its state in an application-provided
 * {@link OAuthStateStore}. Sending the person to the authorization URL is the application's job.
 *
 * @packageDocumentation
 */
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthState, OAuthStateStore } from './oauth-state-store.ts';

/** Options of {@link createOAuthClientProvider}. */
export interface OAuthClientProviderOptions {
  readonly store: OAuthStateStore;
  /** Where the authorization server sends the browser back to (a loopback URL for CLIs and desktop apps). */
  readonly redirectUrl: string;
  /** The name people see on the consent page (default `recourse`). */
  readonly clientName?: string;
  /** An https URL of this client's metadata document, used as its client id where the server supports it. */
  readonly clientMetadataUrl?: string;
  /** Shows the authorization URL to the person (print it, or open a browser). */
  onAuthorizationUrl(url: URL): void | Promise<void>;
}

/** Creates the provider. A stored registration made for another redirect URL is dropped (re-registration). */
export function createOAuthClientProvider(options: OAuthClientProviderOptions): OAuthClientProvider {
  const { store, redirectUrl } = options;
  const read = async (): Promise<OAuthState> => {
    const state = (await store.load()) ?? {};
    return state.redirectUrl === undefined || state.redirectUrl === redirectUrl
      ? state
      : { ...(state.tokens === undefined ? {} : { tokens: state.tokens }) };
  };
  const update = async (change: (state: OAuthState) => OAuthState): Promise<void> => {
    await store.save({ ...change(await read()), redirectUrl });
  };
  const without = <K extends keyof OAuthState>(state: OAuthState, key: K): OAuthState => {
    const copy = { ...state };
    delete copy[key];
    return copy;
  };
  const metadata: OAuthClientMetadata = {
    client_name: options.clientName ?? 'recourse',
    redirect_uris: [redirectUrl],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  return {
    get redirectUrl() {
      return redirectUrl;
    },
    get clientMetadata() {
      return metadata;
    },
    ...(options.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: options.clientMetadataUrl }),
    clientInformation: async () => (await read()).client,
    saveClientInformation: (client: StoredOAuthClientInformation) => update((s) => ({ ...s, client })),
    tokens: async () => (await read()).tokens,
    saveTokens: (tokens: StoredOAuthTokens) => update((s) => ({ ...s, tokens })),
    redirectToAuthorization: (url: URL) => options.onAuthorizationUrl(url),
    saveCodeVerifier: (codeVerifier: string) => update((s) => ({ ...s, codeVerifier })),
    async codeVerifier() {
      const verifier = (await read()).codeVerifier;
      if (verifier === undefined)
        throw new Error('No sign-in is in progress: there is no PKCE code verifier to send.');
      return verifier;
    },
    saveDiscoveryState: (discovery: OAuthDiscoveryState) => update((s) => ({ ...s, discovery })),
    discoveryState: async () => (await read()).discovery,
    invalidateCredentials: (scope) =>
      update((s) => {
        if (scope === 'all') return {};
        const key = (
          { client: 'client', tokens: 'tokens', verifier: 'codeVerifier', discovery: 'discovery' } as const
        )[scope];
        return without(s, key);
      }),
  };
}
