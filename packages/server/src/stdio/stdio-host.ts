/**
 * The stdio host: serves any {@link McpServerFactory} over stdin/stdout for local desktop clients, both
 * protocol eras (the opening message picks one per connection), as one configured caller or none.
 *
 * @packageDocumentation
 */
import type { Readable, Writable } from 'node:stream';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { pino } from 'pino';
import type { Logger } from '../logger.ts';
import { ANONYMOUS_PRINCIPAL, type McpServerFactory, type Principal } from '../contract.ts';
import { DEFAULT_MAX_JSON_DEPTH } from '../json-depth.ts';
import { filterDeepLines } from './depth-filter.ts';

/** Options of {@link startStdioHost}. */
export interface StdioHostOptions {
  /** Builds the SDK server for the connection (called with `transport: 'stdio'`). */
  readonly factory: McpServerFactory;
  /**
   * Who is calling: on stdio the application resolves it (e.g. from a token in the environment). Default
   * {@link ANONYMOUS_PRINCIPAL}: a local tool server without authentication.
   */
  readonly principal?: Principal;
  /** Input stream (default `process.stdin`). */
  readonly stdin?: Readable;
  /** Output stream (default `process.stdout`); nothing but JSON-RPC may be written to it. */
  readonly stdout?: Writable;
  /** Deepest JSON nesting of a message (default 64); deeper lines are answered with -32600 and dropped. */
  readonly maxJsonDepth?: number;
  /** Where faults go; default silent. Never log to stdout here. */
  readonly logger?: Logger;
}

/** A running stdio host. */
export interface StdioHost {
  /** Resolves once the connection has ended: the client closed stdin, or {@link StdioHost.close} ran. */
  readonly closed: Promise<void>;
  /** Ends the connection: in-flight calls are aborted (their signals fire) and not answered. */
  close(): Promise<void>;
}

/**
 * Starts serving MCP over stdio. A `notifications/cancelled` from the client aborts the named call's
 * `ctx.mcpReq.signal` (the SDK routes it to the pinned instance). A line nesting deeper than `maxJsonDepth`
 * is answered with -32600 before the SDK sees it, and so are a line that is not JSON (-32700) and a request of
 * the wrong shape (-32600); what the SDK still drops (e.g. a malformed response) is logged at debug level here.
 */
export function startStdioHost(options: StdioHostOptions): Promise<StdioHost> {
  const base: Logger = options.logger ?? pino({ enabled: false });
  const log = base.child({ component: 'stdio-host' });
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const filtered = filterDeepLines(stdin, options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH, (line) => {
    log.info('stdio message refused: nested too deeply');
    stdout.write(line);
  });
  const transport = new StdioServerTransport(filtered, stdout);
  const principal = options.principal ?? ANONYMOUS_PRINCIPAL;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  stdin.once('end', () => markClosed());
  stdin.once('close', () => markClosed());
  const handle = serveStdio(() => options.factory({ principal, transport: 'stdio' }), {
    transport,
    onerror: (error) => log.debug({ err: error.message }, 'stdio message refused or dropped'),
  });
  log.info({ principal: principal.id }, 'serving MCP over stdio');
  return Promise.resolve({
    closed,
    close: async () => {
      await handle.close();
      markClosed();
    },
  });
}
