/**
 * One lazily opened SDK `Client` per server, over Streamable HTTP, stdio or a supplied transport,
 * in either protocol era, with re-pinning to another version after -32022.
 *
 * @packageDocumentation
 */
import {
  Client,
  StreamableHTTPClientTransport,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/client';
import type {
  AuthProvider,
  ClientCapabilities,
  ClientOptions,
  OAuthClientProvider,
  Tool,
  Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { AttemptBoundHttpTransport } from './attempt-bound-transport.ts';
import { ExchangeRegistry, observingFetch } from './http-exchange.ts';
import { ProgressRoutes } from './progress-routes.ts';
import { WatchTimer } from './watch-timer.ts';
import { ToolDefinitions } from './tool-definitions.ts';
import { checkInputOptions, installInputHandlers, InvalidClientOptionsError } from './input-handlers.ts';
import type { InputHandlers } from './input-handlers.ts';

/** The 2026-07-28 protocol revision, the first of the stateless era. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** Where a server lives: an HTTP URL (with an optional bearer token), a stdio command, or a transport factory. */
export type ServerTarget =
  | {
      readonly url: string | URL;
      readonly token?: string;
      readonly headers?: Readonly<Record<string, string>>;
      /**
       * OAuth instead of a fixed token: an OAuthClientProvider (e.g. from `signIn` or
       * `createOAuthClientProvider`) or any SDK AuthProvider. The SDK sends its access token, refreshes it on a
       * 401 and asks it to sign in again when the refresh is refused.
       */
      readonly auth?: OAuthClientProvider | AuthProvider;
    }
  | {
      readonly stdio: {
        readonly command: string;
        readonly args?: readonly string[];
        readonly env?: Readonly<Record<string, string>>;
        readonly cwd?: string;
      };
    }
  | { readonly transport: () => Transport };

/**
 * Which protocol era to speak: `'modern'` pins 2026-07-28, `'legacy'` runs the 2025 `initialize`
 * handshake, `'auto'` lets the SDK probe with `server/discover` and fall back.
 */
export type ProtocolMode = 'auto' | 'modern' | 'legacy';

/** Options of {@link Connection}. */
export interface ConnectionOptions {
  /** Default `'auto'`. */
  readonly protocol?: ProtocolMode;
  /** Default `{ name: 'recourse-client', version: '0.1.0' }`. */
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** Capabilities declared to the server (default none). Each input capability needs its handler. */
  readonly capabilities?: ClientCapabilities;
  /** Answers to the server's input requests, installed on every SDK client this connection creates. */
  readonly inputHandlers?: InputHandlers;
}

type Pin = { readonly mode: ProtocolMode } | { readonly version: string };

function isModern(version: string): boolean {
  return version >= MODERN_PROTOCOL_VERSION;
}

/**
 * Chooses the version to re-pin to from a -32022 `data.supported` list: the newest one this client
 * speaks, or undefined when there is none.
 */
export function chooseVersion(supported: readonly unknown[]): string | undefined {
  const known = new Set<string>([MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS]);
  const usable = supported.filter((v): v is string => typeof v === 'string' && known.has(v));
  return usable.sort().reverse()[0];
}

/** Holds the SDK client of one server; connects on first use and reconnects after it closes. */
export class Connection {
  readonly #target: ServerTarget;
  readonly #clientInfo: { name: string; version: string };
  readonly #capabilities: ClientCapabilities;
  readonly #inputHandlers: InputHandlers;
  #pin: Pin;
  #current: Promise<Client> | undefined;
  #connected: Client | undefined;
  #opening: { readonly client: Client; readonly controller: AbortController } | undefined;
  #closed = false;
  /** Calls running per SDK client (a weak map: a count of 0 stays, and goes with its client). */
  readonly #inUse = new WeakMap<Client, number>();
  readonly #retired = new Set<Client>();
  /** The listed tools handed to `callTool` on stdio connections. */
  readonly #definitions = new ToolDefinitions();
  /**
   * The HTTP exchanges of the running attempts (HTTP targets only): an attempt registers its exchange and tags
   * its requests with the `x-recourse-attempt` header (only on the transport built here, which removes the tag).
   */
  readonly exchanges: ExchangeRegistry | undefined;
  /** Routes the server's progress notifications to the running attempts (one handler per SDK client). */
  readonly progress = new ProgressRoutes();
  /** Times the deadlines of the running attempts (one timer for all of them). */
  readonly timer = new WatchTimer();

  /** Throws `InvalidClientOptionsError` (`INVALID_CLIENT_OPTIONS`) when a capability lacks its handler or vice versa. */
  constructor(target: ServerTarget, options: ConnectionOptions = {}) {
    this.#capabilities = options.capabilities ?? {};
    this.#inputHandlers = options.inputHandlers ?? {};
    checkInputOptions(this.#capabilities, this.#inputHandlers);
    if ('url' in target && target.token !== undefined && target.auth !== undefined)
      throw new InvalidClientOptionsError(
        'The target gives both a token and auth; the client would not know which credential to send. Pass token for a fixed bearer token, or auth for OAuth. No client was created.',
      );
    this.#target = target;
    this.exchanges = 'url' in target ? new ExchangeRegistry() : undefined;
    this.#pin = { mode: options.protocol ?? 'auto' };
    this.#clientInfo = {
      name: options.clientInfo?.name ?? 'recourse-client',
      version: options.clientInfo?.version ?? '0.1.0',
    };
  }

  /** The connected SDK client, connecting first when needed. Rejects with the SDK's connect error. */
  client(): Promise<Client> {
    if (this.#closed) {
      return Promise.reject(new Error('The Recourse client was closed; create a new one to call again.'));
    }
    if (!this.#current) {
      const opening = this.#open();
      this.#current = opening;
      opening.catch(() => {
        if (this.#current === opening) this.#current = undefined;
      });
    }
    return this.#current;
  }

  /** The connected SDK client, when there is one already (no connecting needed); otherwise use {@link client}. */
  get ready(): Client | undefined {
    return this.#closed ? undefined : this.#connected;
  }

  /**
   * Whether an attempt on `client` (undefined: not connected yet) may take a light abort signal, because none of
   * its requests hands that signal to `fetch`: off HTTP, and on HTTP connections of the 2026-07-28 era, where the
   * SDK gives each request an abort of its own and fires it when the attempt's signal aborts.
   */
  takesLightSignals(client: Client | undefined): boolean {
    return this.exchanges === undefined || client?.getProtocolEra() === 'modern';
  }

  /** Lists the server's tools (all pages) on the connected SDK client, connecting first when needed. */
  async listTools(signal?: AbortSignal): Promise<readonly Tool[]> {
    return this.#definitions.list(await this.client(), signal);
  }

  /**
   * The definition of `tool` to pass as `toolDefinition` to `client.callTool`, once the tools were listed on
   * `client` (see `ToolDefinitions`); undefined otherwise.
   */
  toolDefinition(client: Client, tool: string): Tool | undefined {
    return this.#definitions.of(client, tool);
  }

  /** Whether `client`'s requests carry HTTP headers, so that the SDK mirrors tool arguments into them. */
  mirrorsHeaders(client: Client): boolean {
    return this.#definitions.mirrorsHeaders(client);
  }

  /** Stops handing `client`'s listed definitions to `callTool` (a header mismatch showed them out of date). */
  forgetToolDefinitions(client: Client): void {
    this.#definitions.forget(client);
  }

  /**
   * Counts a call as running on `client` until the matching {@link release}: a client retired by {@link repin}
   * is closed only once the calls still running on it have finished.
   */
  acquire(client: Client): void {
    this.#inUse.set(client, (this.#inUse.get(client) ?? 0) + 1);
  }

  /** Ends what {@link acquire} began; closes `client` when it was retired and this was its last call. */
  release(client: Client): void {
    const left = (this.#inUse.get(client) ?? 1) - 1;
    this.#inUse.set(client, left);
    if (left === 0 && this.#retired.size > 0 && this.#retired.delete(client))
      void client.close().catch(() => undefined);
  }

  /**
   * Pins `version` for the next connection after `failed` was answered -32022. Does nothing when another call
   * already moved on from `failed`. The old client is retired: closed once its running calls have finished.
   */
  repin(version: string, failed: Client | undefined): void {
    if (failed !== undefined && this.#connected !== failed) return;
    this.#pin = { version };
    const old = this.#connected;
    this.#current = undefined;
    this.#connected = undefined;
    if (old && (this.#inUse.get(old) ?? 0) > 0) this.#retired.add(old);
    else if (old) void old.close().catch(() => undefined);
  }

  /** Drops the open connection (aborting a connect still in progress); the next {@link client} call reconnects. */
  async reset(): Promise<void> {
    const connected = this.#connected;
    const opening = this.#opening;
    this.#current = undefined;
    this.#connected = undefined;
    this.#opening = undefined;
    opening?.controller.abort(new Error('The connection was reset.'));
    const closing: Promise<void>[] = [];
    if (connected) closing.push(connected.close().catch(() => undefined));
    if (opening) closing.push(opening.client.close().catch(() => undefined));
    await Promise.all(closing);
  }

  /** Closes the connection for good. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.reset();
  }

  /** The one place an SDK client is built: the pinned era, the declared capabilities and the input handlers. */
  #newClient(): Client {
    const client = new Client(this.#clientInfo, {
      capabilities: structuredClone(this.#capabilities),
      ...this.#eraOptions(),
    });
    installInputHandlers(client, this.#inputHandlers);
    this.progress.install(client);
    return client;
  }

  #eraOptions(): ClientOptions {
    const pin = this.#pin;
    if ('version' in pin) {
      return isModern(pin.version)
        ? { versionNegotiation: { mode: { pin: pin.version } } }
        : {
            supportedProtocolVersions: [
              pin.version,
              ...SUPPORTED_PROTOCOL_VERSIONS.filter((v) => v !== pin.version),
            ],
          };
    }
    if (pin.mode === 'legacy') return {};
    const mode = pin.mode === 'modern' ? { pin: MODERN_PROTOCOL_VERSION } : 'auto';
    return { versionNegotiation: { mode } };
  }

  async #open(): Promise<Client> {
    if (this.exchanges) this.exchanges.untagged = { mayHaveReachedServer: false };
    const client = this.#newClient();
    const controller = new AbortController();
    const opening = { client, controller };
    this.#opening = opening;
    client.onclose = () => {
      if (this.#connected === client) {
        this.#connected = undefined;
        this.#current = undefined;
      }
    };
    try {
      const transport = this.#transport();
      this.#definitions.track(client, transport instanceof StreamableHTTPClientTransport);
      await client.connect(transport, { signal: controller.signal });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    } finally {
      if (this.#opening === opening) this.#opening = undefined;
    }
    if (controller.signal.aborted) {
      await client.close().catch(() => undefined);
      throw new Error('The connection was reset while it opened.');
    }
    this.#connected = client;
    return client;
  }

  #transport(): Transport {
    const target = this.#target;
    if ('transport' in target) return target.transport();
    if ('stdio' in target) {
      return new StdioClientTransport({
        command: target.stdio.command,
        args: [...(target.stdio.args ?? [])],
        ...(target.stdio.env ? { env: { ...target.stdio.env } } : {}),
        ...(target.stdio.cwd ? { cwd: target.stdio.cwd } : {}),
        stderr: 'ignore',
      });
    }
    const headers: Record<string, string> = { ...(target.headers ?? {}) };
    if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
    const exchanges = this.exchanges ?? new ExchangeRegistry();
    return new AttemptBoundHttpTransport(
      new URL(target.url),
      {
        fetch: observingFetch(fetch, headers, exchanges),
        ...(target.auth === undefined ? {} : { authProvider: target.auth }),
      },
      exchanges,
    );
  }
}
