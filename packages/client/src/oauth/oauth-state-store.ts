/**
 * Where an OAuth client keeps what it must remember between runs: its registration, its tokens, the PKCE
 * verifier of a sign-in in progress, and what discovery found. The application provides the store; the client
 * ships an in-memory one and an owner-only file.
 *
 * @packageDocumentation
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

/** Everything an OAuth client remembers about one server. */
export interface OAuthState {
  /** The redirect URL the client registered with (a new one needs a new registration). */
  readonly redirectUrl?: string;
  readonly client?: StoredOAuthClientInformation;
  readonly tokens?: StoredOAuthTokens;
  readonly codeVerifier?: string;
  readonly discovery?: OAuthDiscoveryState;
  /**
   * Set when a call needed a new authorization (a refused refresh, or a server asking for more scope): the next
   * sign-in asks the person again, for `scope` when the server named one, and discovers afresh.
   */
  readonly reauthorize?: { readonly scope?: string };
}

/** The application's store for {@link OAuthState}. */
export interface OAuthStateStore {
  load(): OAuthState | undefined | Promise<OAuthState | undefined>;
  save(state: OAuthState): void | Promise<void>;
}

/** A store that keeps the state in memory only (lost when the process ends). */
export function memoryOAuthStateStore(initial?: OAuthState): OAuthStateStore {
  let state = initial;
  return {
    load: () => state,
    save: (next) => {
      state = next;
    },
  };
}

/**
 * A store in one JSON file readable and writable by its owner only (mode 0600, its directory created with
 * 0700). Each save writes a temporary file and renames it, so a crash never leaves half a file. A file that
 * cannot be parsed is treated as empty (the next sign-in replaces it).
 */
export function fileOAuthStateStore(path: string): OAuthStateStore {
  return {
    load() {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        return undefined;
      }
      try {
        const parsed: unknown = JSON.parse(text);
        return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
      } catch {
        return undefined;
      }
    },
    save(state) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      const temporary = `${path}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
      chmodSync(temporary, 0o600);
      renameSync(temporary, path);
    },
  };
}
