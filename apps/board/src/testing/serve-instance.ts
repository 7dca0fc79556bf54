/**
 * Test helper: the real `recourse-board serve` binary as a child process, with the URL it listens on, the owner
 * token it prints on a first start, and its exit.
 *
 * @packageDocumentation
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BOARD_BIN } from './stdio-client.ts';

/** A running `recourse-board serve`. */
export interface ServeInstance {
  readonly child: ChildProcess;
  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: string;
  /** `http://127.0.0.1:PORT`: where `/healthz`, `/readyz` and `/metrics` are. */
  readonly origin: string;
  readonly port: number;
  /** The owner token printed on a first start (undefined when the board had an owner already). */
  readonly ownerToken: string | undefined;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Options of {@link startServeInstance}. */
export interface ServeInstanceOptions {
  /** Extra arguments after `serve` (default `--port 0`). */
  readonly args?: readonly string[];
  /** Environment added to this process's (e.g. `DATABASE_URL`, `LOG_LEVEL`). */
  readonly env?: Readonly<Record<string, string>>;
  /** How long to wait for the "listening" line (default 30 s). */
  readonly timeoutMs?: number;
}

/**
 * Spawns `recourse-board serve` and resolves once it printed its URL (and, on a first start, the owner token).
 * Rejects with its stderr when it exits first or does not start within the timeout.
 */
export function startServeInstance(options: ServeInstanceOptions = {}): Promise<ServeInstance> {
  const child = spawn(process.execPath, [BOARD_BIN, 'serve', ...(options.args ?? ['--port', '0'])], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return new Promise<ServeInstance>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`recourse-board serve did not start in time; stderr: ${err}`));
    }, options.timeoutMs ?? 30_000);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(
        new Error(`recourse-board serve exited (${String(code ?? signal)}) before listening; stderr: ${err}`),
      );
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const url = /listening on (http:\/\/\S+\/mcp)/.exec(out)?.[1];
      if (url === undefined || !out.includes('\nData: ') || !out.endsWith('\n')) return;
      const firstStart = out.includes('First start');
      const ownerToken = /^(rbt_\S+)$/m.exec(out)?.[1];
      if (firstStart && ownerToken === undefined) return;
      clearTimeout(timer);
      const parsed = new URL(url);
      resolve({
        child,
        url,
        origin: parsed.origin,
        port: Number(parsed.port),
        ownerToken,
        stderr: () => err,
        exited,
      });
    });
  });
}
