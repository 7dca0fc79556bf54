/**
 * The memory phase: a board on SQLite (stdio by default, or HTTP; 2026-07-28, 16 in flight) takes mixed calls
 * (three successful `tasks_get` for each one on a missing ref); its RSS and heap after a full collection are
 * read after the first tenth of the calls and at the end.
 *
 * @packageDocumentation
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sdkCaller, type Caller, type Endpoint } from './callers.ts';
import type { SeededBoard } from './fixtures.ts';
import { residentBytes } from './proc-usage.ts';
import { startServer, type ServerProcess } from './server-process.ts';

/** Memory of the server process at one point. */
export interface MemoryPoint {
  readonly calls: number;
  readonly rss: number;
  readonly heapUsed: number;
}

/** The result of the memory phase. */
export interface MemoryReport {
  readonly points: readonly MemoryPoint[];
  readonly peakRss: number;
  readonly seconds: number;
  /** The calls asked for (fewer were made when the time bound stopped the phase). */
  readonly asked: number;
}

/** Makes up to `count` calls, 16 in flight, until `deadline` (epoch ms); answers how many were made. */
async function run(callers: readonly Caller[], count: number, deadline: number): Promise<number> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count && Date.now() < deadline) {
      const index = next;
      next += 1;
      await callers[index % callers.length]!.call();
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
  return next;
}

/** Asks the server for its memory (SIGUSR2 → file) and waits up to 10 s for the answer. */
async function heapUsed(pid: number, file: string): Promise<number> {
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 200; i += 1) {
    await sleep(50);
    try {
      return (JSON.parse(readFileSync(file, 'utf8')) as { heapUsed: number }).heapUsed;
    } catch {
      // not written yet
    }
  }
  throw new Error('the board did not report its memory within 10 s');
}

/**
 * Runs `total` mixed calls and reads memory after `total / 10` and at the end. Stops early after `maxSeconds`
 * (the report then names the calls actually made).
 */
export async function memoryPhase(
  sqlite: SeededBoard,
  total: number,
  leg: 'stdio' | 'http',
  maxSeconds: number,
): Promise<MemoryReport> {
  const dir = mkdtempSync(join(tmpdir(), 'recourse-bench-mem-'));
  const file = join(dir, 'memory.json');
  let server: ServerProcess | undefined;
  let endpoint: Endpoint;
  if (leg === 'http') {
    server = await startServer('board.ts', ['--data-dir', sqlite.dataDir!], { BENCH_MEMORY_FILE: file }, [
      '--expose-gc',
    ]);
    endpoint = { kind: 'http', url: server.url, pid: server.pid, token: sqlite.token };
  } else {
    endpoint = {
      kind: 'stdio',
      script: 'board.ts',
      args: ['--data-dir', sqlite.dataDir!],
      env: { RECOURSE_TOKEN: sqlite.token, BENCH_MEMORY_FILE: file },
      nodeFlags: ['--expose-gc'],
    };
  }
  // One connection making both kinds of call, as a client would.
  const ok = await sdkCaller(endpoint, 'modern', {
    tool: 'tasks_get',
    args: { ref: 'T-1' },
    expect: 'success',
  });
  const missing = {
    ...ok,
    call: ok.callWith({ tool: 'tasks_get', args: { ref: 'T-999999' }, expect: 'not_found' }),
  };
  const mix = [ok, ok, ok, missing];
  const points: MemoryPoint[] = [];
  const read = async (calls: number): Promise<void> => {
    const heap = await heapUsed(ok.pid, file);
    points.push({ calls, rss: residentBytes(ok.pid).rss, heapUsed: heap });
  };
  const started = Date.now();
  const deadline = started + maxSeconds * 1000;
  const first = await run(mix, total / 10, deadline);
  await read(first);
  const rest = await run(mix, total - first, deadline);
  await read(first + rest);
  const seconds = (Date.now() - started) / 1000;
  const peakRss = residentBytes(ok.pid).peak;
  await ok.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
  return { points, peakRss, seconds, asked: total };
}
