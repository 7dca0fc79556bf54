/**
 * How `recourse call` signs in with OAuth: with `--sign-in` it prints the authorization URL when no usable tokens
 * are stored and waits for the browser to come back; with `--auth-file` alone it only uses the stored tokens.
 * Either way the tokens live in an owner-only file and the SDK refreshes them on a 401.
 *
 * @packageDocumentation
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { createOAuthClientProvider } from '../oauth/oauth-client-provider.ts';
import { fileOAuthStateStore } from '../oauth/oauth-state-store.ts';
import { signIn } from '../oauth/sign-in.ts';
import type { CliIo } from './main.ts';

/** The name the consent page shows for the CLI. */
export const CLI_CLIENT_NAME = 'recourse CLI';

/**
 * The provider for the calls. `interactive` runs {@link signIn} (printing the URL to open on stderr); otherwise the
 * stored tokens are used as they are, and a call without usable ones fails with `CALL_SIGN_IN_REQUIRED`.
 */
export async function oauthProvider(
  url: string | URL,
  file: string,
  interactive: boolean,
  io: CliIo,
): Promise<OAuthClientProvider> {
  const store = fileOAuthStateStore(file);
  if (!interactive) {
    const stored = await store.load();
    return createOAuthClientProvider({
      store,
      clientName: CLI_CLIENT_NAME,
      redirectUrl: stored?.redirectUrl ?? 'http://127.0.0.1/callback',
      onAuthorizationUrl: () => undefined,
    });
  }
  return signIn({
    serverUrl: url,
    store,
    clientName: CLI_CLIENT_NAME,
    onAuthorizationUrl: (authorizationUrl) => {
      io.stderr.write(
        `To sign in to ${String(url)}, open this URL in your browser (waiting up to 5 minutes):\n${authorizationUrl.href}\n`,
      );
    },
    ...(io.signal ? { signal: io.signal } : {}),
  });
}
