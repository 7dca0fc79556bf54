/**
 * Starts a benchmark server script as a child process (`node --import tsx`), waits for its `READY <url>` line
 * and stops it again.
 *
 * @packageDocumentation
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/**
 * The node arguments that run a benchmark server script with tsx on the TypeScript sources of the workspace
 * packages (their `recourse-source` export condition), as the tests do; `extra` goes before the script.
 */
export function serverArgs(script: string, args: readonly string[], extra: readonly string[] = []): string[] {
  const file = fileURLToPath(new URL(`../servers/${script}`, import.meta.url));
  return [...extra, '--conditions=recourse-source', '--import', 'tsx', file, ...args];
}

/** A running HTTP server child. */
export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Lines the child printed on stdout after `READY`. */
  nextLine(): Promise<string>;
  stop(): Promise<void>;
}

/** Spawns `script` in HTTP mode and resolves once it prints `READY <url>` (rejects after 60 s or on exit). */
export async function startServer(
  script: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  nodeFlags: readonly string[] = [],
): Promise<ServerProcess> {
  const child = spawn(process.execPath, serverArgs(script, ['http', ...args], nodeFlags), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const waiting: ((line: string) => void)[] = [];
  const queued: string[] = [];
  lines.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else queued.push(line);
  });
  const nextLine = (): Promise<string> => {
    const line = queued.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve) => waiting.push(resolve));
  };
  const ready = await Promise.race([
    nextLine(),
    new Promise<never>((_, reject) => {
      child.once('exit', (code) => reject(new Error(`${script} exited with ${String(code)} before READY`)));
      setTimeout(() => reject(new Error(`${script} did not print READY within 60 s`)), 60_000).unref();
    }),
  ]);
  if (!ready.startsWith('READY ')) throw new Error(`${script} printed ${ready} instead of READY`);
  return {
    url: ready.slice(6).trim(),
    pid: child.pid!,
    child,
    nextLine,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}
