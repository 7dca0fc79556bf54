/**
 * The board as an OAuth 2.1 authorization server for its own MCP endpoint, on `oidc-provider`: RFC 8414
 * metadata, the authorization-code flow with PKCE S256 only, Client ID Metadata Documents and RFC 7591 dynamic
 * registration, RFC 8707 resource indicators (every access token is bound to the board's MCP endpoint), the RFC
 * 9207 `iss` parameter, short-lived opaque access tokens with rotating refresh tokens, and RFC 7009 revocation.
 * The board supplies accounts (its members), the sign-in and consent pages, and storage.
 *
 * @packageDocumentation
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import type { TokenVerifier } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { isRole } from '../domain/roles.ts';
import { memberPrincipal } from '../domain/member.ts';
import { createSigner, html, pageSecurityHeaders, layout } from '../pages/index.ts';
import { adapterFor } from './provider-adapter.ts';
import type { OAuthStore } from './oauth-store.ts';
import { BOARD_SCOPE_NAMES, effectiveRole } from './oauth-scopes.ts';
import { createMemberAccounts } from './member-accounts.ts';
import { createConsentPages } from './consent-pages.ts';

/** Default lifetime of an access token: 10 minutes. */
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 600;
/** Default lifetime of a refresh token (and of a grant): 30 days. */
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** Where the authorization server's own endpoints live. */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
  end_session: '/oauth/session/end',
  interaction: '/oauth/interaction',
  signin: '/signin',
} as const;

/** Options of {@link createAuthorizationServer}. */
export interface AuthorizationServerOptions {
  /** The canonical URL of the MCP endpoint; its origin is the issuer, and tokens are bound to it. */
  readonly mcpUrl: string;
  /** Other URLs the same endpoint answers on (e.g. `localhost` beside `127.0.0.1`), accepted as resources. */
  readonly alsoKnownAs?: readonly string[];
  /** Access token lifetime in seconds (default 600). */
  readonly accessTokenTtlSeconds?: number;
  /** Refresh token and grant lifetime in seconds (default 30 days). */
  readonly refreshTokenTtlSeconds?: number;
  readonly logger: Logger;
  /** Clock for sign-in links and grants (default: the system clock). */
  readonly now?: () => Date;
}

/** The running authorization server. */
export interface AuthorizationServer {
  /** The issuer identifier, e.g. `http://127.0.0.1:3333`. */
  readonly issuer: string;
  /** Serves the request when it is one of the server's routes (returns true), else returns false at once. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean>;
  /** Verifies the OAuth access tokens it issued, mapping each to the principal of the member it acts as. */
  readonly verifier: TokenVerifier;
  /** Stops the periodic purge of expired records. */
  close(): void;
}

const PURGE_EVERY_MS = 10 * 60 * 1000;
const PURGE_GRACE_SECONDS = 24 * 3600;

/** Creates the authorization server over the board's services (members) and the OAuth store. */
export async function createAuthorizationServer(
  services: BoardServices,
  store: OAuthStore,
  options: AuthorizationServerOptions,
): Promise<AuthorizationServer> {
  // Loaded here, not at import: on Node 20 the library warns once that it wants Node 22, which only matters
  // where an authorization server really starts, not in every CLI command.
  const { default: Provider, errors, interactionPolicy } = await import('oidc-provider');
  const mcpUrl = new URL(options.mcpUrl).href;
  const issuer = new URL(mcpUrl).origin;
  const resources = new Set([mcpUrl, ...(options.alsoKnownAs ?? []).map((u) => new URL(u).href)]);
  const accessTtl = options.accessTokenTtlSeconds ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS;
  const refreshTtl = options.refreshTokenTtlSeconds ?? DEFAULT_REFRESH_TOKEN_TTL_SECONDS;
  const log = options.logger.child({ component: 'oauth' });
  const secure = issuer.startsWith('https:');
  const accounts = createMemberAccounts(
    services.store,
    store,
    options.now === undefined ? {} : { now: options.now },
  );

  const cookieKey = await store.secret('oauth-cookie-key', () => randomBytes(32).toString('base64url'));
  const pageKey = await store.secret('page-key', () => randomBytes(32).toString('base64url'));
  const signingKey = JSON.parse(
    await store.secret('oauth-signing-key', () =>
      JSON.stringify({
        ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
        use: 'sig',
        alg: 'RS256',
        kid: randomBytes(8).toString('base64url'),
      }),
    ),
  ) as Record<string, string>;

  /** A grant's acting member, when the grant is active and both it and its approver are active members. */
  async function grantHolder(grantId: string | undefined) {
    if (grantId === undefined) return { refused: 'unknown' as const };
    const grant = await store.findGrant(grantId);
    if (grant === undefined) return { refused: 'unknown' as const };
    if (grant.revokedAt !== null) return { refused: 'revoked' as const };
    const member = await accounts.activeMember(grant.memberId);
    const approver = await accounts.activeMember(grant.approvedBy);
    if (member === undefined || approver === undefined) return { refused: 'revoked' as const };
    return { grant, member };
  }

  const policy = interactionPolicy.base();
  // Every authorization asks the person: the consent page is where they choose who the client acts as.
  policy
    .get('consent')
    ?.checks.add(
      new interactionPolicy.Check('board_approval', 'a member must approve this client', (ctx) =>
        ctx.oidc.result?.consent === undefined
          ? interactionPolicy.Check.REQUEST_PROMPT
          : interactionPolicy.Check.NO_NEED_TO_PROMPT,
      ),
    );

  const configuration: Configuration = {
    adapter: adapterFor(store),
    clients: [],
    jwks: { keys: [signingKey] },
    cookies: {
      keys: [cookieKey],
      long: { signed: true, httpOnly: true, sameSite: 'lax', secure },
      short: { signed: true, httpOnly: true, sameSite: 'lax', secure },
    },
    scopes: ['offline_access', ...BOARD_SCOPE_NAMES],
    claims: { openid: ['sub'], profile: ['name'] },
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    async findAccount(ctx: KoaContextWithOIDC, id: string) {
      const member = await accounts.activeMember(id);
      if (member === undefined) return undefined;
      // A refresh also needs the grant and the member it acts as to be active.
      const refreshing = ctx.oidc?.entities?.RefreshToken;
      if (refreshing !== undefined && 'refused' in (await grantHolder(refreshing.grantId))) return undefined;
      return { accountId: member.id, claims: () => ({ sub: member.id, name: member.name }) };
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => `${OAUTH_ROUTES.interaction}/${interaction.uid}`,
    },
    // A fresh grant for every authorization (the consent page decides who it acts as); the one just approved is
    // loaded when the authorization resumes.
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId === undefined ? undefined : await ctx.oidc.provider.Grant.find(grantId);
    },
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    expiresWithSession: () => false,
    ttl: {
      AccessToken: accessTtl,
      AuthorizationCode: 60,
      Interaction: 600,
      Session: 8 * 3600,
      Grant: refreshTtl,
      RefreshToken: refreshTtl,
      IdToken: 600,
    },
    routes: {
      authorization: OAUTH_ROUTES.authorization,
      token: OAUTH_ROUTES.token,
      registration: OAUTH_ROUTES.registration,
      revocation: OAUTH_ROUTES.revocation,
      jwks: OAUTH_ROUTES.jwks,
      end_session: OAUTH_ROUTES.end_session,
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      introspection: { enabled: false },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => mcpUrl,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, indicator) {
          if (!resources.has(indicator))
            throw new errors.InvalidTarget(`this server issues tokens only for ${mcpUrl}`);
          return {
            scope: BOARD_SCOPE_NAMES.join(' '),
            audience: indicator,
            accessTokenTTL: accessTtl,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.set(pageSecurityHeaders());
      const name = String(out.error ?? 'server_error');
      const description = String(out.error_description ?? 'The sign-in request could not be completed.');
      ctx.body = layout(
        'Sign-in failed',
        html`<p class="error" role="alert">${description} (OAuth error <code>${name}</code>.)</p>
          <p>
            Nothing was approved. Go back to the application that sent you here and start the sign-in again.
          </p>`,
      );
    },
  };

  const provider = new Provider(issuer, configuration);
  // A request that names no scope asks for everything the member's role allows (the scopes cap roles; none
  // would grant nothing, which the library refuses as access_denied).
  provider.use(async (ctx, next) => {
    if (ctx.path === OAUTH_ROUTES.authorization && ctx.method === 'GET' && !ctx.query['scope'])
      ctx.query = { ...ctx.query, scope: BOARD_SCOPE_NAMES.join(' ') };
    await next();
  });
  provider.on('server_error', (_ctx, error) => log.error({ err: error }, 'the authorization server failed'));
  const refused = (event: string) => (_ctx: unknown, error: Error & { error?: string }) =>
    log.info({ event, error: error.error ?? error.name, detail: error.message }, 'OAuth request refused');
  provider.on('authorization.error', refused('authorization.error'));
  provider.on('grant.error', refused('grant.error'));
  provider.on('registration_create.error', refused('registration_create.error'));
  provider.on('revocation.error', refused('revocation.error'));
  const callback = provider.callback();

  const signer = createSigner(pageKey);
  const pages = createConsentPages({
    provider,
    accounts,
    members: services.members,
    store,
    signer,
    issuer,
    secure,
    log,
    now: options.now,
  });

  const purge = setInterval(() => {
    store
      .purgeExpired(Math.floor(Date.now() / 1000) - PURGE_GRACE_SECONDS)
      .catch((error: unknown) => log.warn({ err: error }, 'purging expired OAuth records failed'));
  }, PURGE_EVERY_MS);
  purge.unref();

  const isProtocolRoute = (path: string): boolean =>
    path === '/.well-known/openid-configuration' ||
    (path.startsWith('/oauth/') && !path.startsWith(`${OAUTH_ROUTES.interaction}/`));

  return {
    issuer,
    async handle(req, res, path) {
      if (path === '/.well-known/oauth-authorization-server') {
        // RFC 8414 metadata: the same document as the OpenID discovery one, which the library serves.
        req.url = `/.well-known/openid-configuration${(req.url ?? '').slice(path.length)}`;
        await callback(req, res);
        return true;
      }
      if (isProtocolRoute(path)) {
        await callback(req, res);
        return true;
      }
      return pages.handle(req, res, path);
    },
    verifier: {
      async verify(token) {
        const accessToken = await provider.AccessToken.find(token, { ignoreExpiration: true });
        if (accessToken === undefined) return { ok: false, reason: 'unknown' };
        if (accessToken.isExpired) return { ok: false, reason: 'expired' };
        const audiences = ([] as unknown[]).concat(accessToken.aud ?? []);
        if (!audiences.some((aud) => typeof aud === 'string' && resources.has(aud)))
          return { ok: false, reason: 'unknown' };
        const holder = await grantHolder(accessToken.grantId);
        if ('refused' in holder) return { ok: false, reason: holder.refused };
        const { member, grant } = holder;
        const role = isRole(member.role)
          ? effectiveRole(member.role, accessToken.scope ?? grant.scope)
          : member.role;
        return {
          ok: true,
          principal: { ...memberPrincipal(member, grant.grantId), role },
        };
      },
    },
    close() {
      clearInterval(purge);
    },
  };
}
