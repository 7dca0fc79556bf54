/**
 * Test helper: the real `recourse-board serve` binary as a child process on a data directory, started with
 * `--port 0` and extra flags, resolved once it has printed where it listens.
 *
 * @packageDocumentation
 */
import { spawn } from 'node:child_process';
import { BOARD_BIN } from './stdio-client.ts';

/** The environment for the CLI: without DATABASE_URL, so that it uses the SQLite data directory given. */
export const CLI_ENV: Record<string, string | undefined> = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL'),
);

/** A running `serve` process. */
export interface ServeProcess {
  /** The MCP endpoint it printed. */
  readonly url: string;
  readonly pid: number;
  /** Its stdout lines so far. */
  lines(): string[];
  /** Its stderr so far. */
  stderr(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
  /** Resolves with the exit code (or the signal's name) once it exits. */
  readonly exited: Promise<number | string | null>;
}

/**
 * Starts `serve --port 0 --data-dir DIR ...flags` and resolves once it has printed its URL and the owner-token
 * block (`firstStart`) or the `Data:` line; rejects when it exits first or does not start within 20 s.
 */
export async function startServe(
  dataDir: string,
  firstStart: boolean,
  flags: readonly string[] = [],
  env: Record<string, string | undefined> = CLI_ENV,
): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [BOARD_BIN, 'serve', '--port', '0', '--data-dir', dataDir, ...flags],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve did not start within 20 s; stdout: ${stdout}; stderr: ${stderr}`)),
      20_000,
    );
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const ready = firstStart ? /Use it as/.test(stdout) : /^Data: /m.test(stdout);
      if (ready) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${String(code)}; stderr: ${stderr}`));
    });
  });
  const lines = () => stdout.split('\n').filter((l) => l !== '');
  const url = /listening on (http:\/\/\S+)$/.exec(lines()[0] ?? '')?.[1] ?? '';
  return {
    url,
    pid: child.pid ?? 0,
    lines,
    stderr: () => stderr,
    exited,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      return typeof code === 'number' ? code : null;
    },
  };
}
