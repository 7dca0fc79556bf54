/**
 * The cluster of the scale tests: a throwaway PostgreSQL, board instances (`recourse-board serve` processes)
 * on it, and HAProxy in front of them, with what an operator does to them: SIGKILL, a graceful restart, probes.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { promisify } from 'node:util';
import { BOARD_BIN } from '../../apps/board/src/testing/stdio-client.ts';
import { docCommand } from './operating-doc.ts';
import { startServeInstance, type ServeInstance } from '../../apps/board/src/testing/serve-instance.ts';

const run = promisify(execFile);

/** The scrape token the scale tests give every instance. */
export const SCALE_METRICS_TOKEN = 'scale-test-metrics-token-0123456789';

/** A free loopback port (the OS picks it; it is free again once this resolves). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Runs `recourse-board ARGS` against `databaseUrl` and answers its stdout (rejects with its stderr). */
export async function boardCli(databaseUrl: string, args: readonly string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [BOARD_BIN, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    timeout: 60_000,
  });
  return stdout;
}

/**
 * The flags of an instance: the serve command of docs/operating.md with this run's ports and metrics token (the
 * balancer's address as the allowed host, the flood guard off, a drain timeout, the metrics token).
 */
export function instanceArgs(port: number, balancerPort: number): string[] {
  const [, , ...args] = docCommand('recourse-board serve', {
    '3331': String(port),
    '127.0.0.1:8080': `127.0.0.1:${String(balancerPort)}`,
    $RECOURSE_METRICS_TOKEN: SCALE_METRICS_TOKEN,
  });
  return args;
}

/** Starts one instance on `port` (0: any) with the scale flags. */
export function startInstance(
  databaseUrl: string,
  port: number,
  balancerPort: number,
): Promise<ServeInstance> {
  return startServeInstance({
    args: instanceArgs(port, balancerPort),
    env: { DATABASE_URL: databaseUrl },
    timeoutMs: 60_000,
  });
}

/** The value of a `recourse_tool_calls_total` series of one instance, summed over `outcomes`. */
export async function callsCounted(
  instance: ServeInstance,
  tool: string,
  outcomes: readonly string[],
): Promise<number> {
  const response = await fetch(`${instance.origin}/metrics`, {
    headers: { authorization: `Bearer ${SCALE_METRICS_TOKEN}` },
  });
  const text = await response.text();
  let sum = 0;
  for (const outcome of outcomes) {
    const line = new RegExp(
      `^recourse_tool_calls_total\\{tool="${tool}",outcome="${outcome}"\\} (\\d+)$`,
      'm',
    );
    sum += Number(line.exec(text)?.[1] ?? 0);
  }
  return sum;
}

/** Waits until `url` answers 200 (bounded by `timeoutMs`). */
export async function waitReady(url: string, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (let i = 0; i < 600 && Date.now() < until; i += 1) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer 200 within ${String(timeoutMs)} ms`);
}
