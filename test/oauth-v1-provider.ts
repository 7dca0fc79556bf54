/**
 * An in-memory OAuthClientProvider for the v1 SDK client (`@modelcontextprotocol/sdk`), the way desktop and IDE
 * hosts wire it: it keeps the registration, tokens and PKCE verifier, and records each authorization URL it is
 * sent to instead of opening a browser, so a test can drive the pages and finish the sign-in.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** The provider plus what it saw. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  readonly authorizationUrls: URL[] = [];
  readonly savedTokens: OAuthTokens[] = [];
  private client: OAuthClientInformationMixed | undefined;
  private current: OAuthTokens | undefined;
  private verifier = '';

  constructor(
    readonly redirectUrl: string,
    private readonly name = 'v1 SDK test client',
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.current;
  }
  saveTokens(tokens: OAuthTokens) {
    this.current = tokens;
    this.savedTokens.push(tokens);
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.current = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = '';
  }
}
