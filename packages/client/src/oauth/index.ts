/**
 * OAuth sign-in for the Recourse client, over the SDK's auth support.
 *
 * @packageDocumentation
 */
export { createOAuthClientProvider, type OAuthClientProviderOptions } from './oauth-client-provider.ts';
export {
  fileOAuthStateStore,
  memoryOAuthStateStore,
  type OAuthState,
  type OAuthStateStore,
} from './oauth-state-store.ts';
export { signIn, SignInError, type SignInOptions } from './sign-in.ts';
