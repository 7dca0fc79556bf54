/**
 * `npm run bench`: side-by-side benchmark of the floor, the bare SDK and Recourse Board (see bench/README.md).
 *
 * Flags: `--quick` (3 rounds, small counts: for development), `--rounds N`, `--only TEXT` (configurations
 * whose id contains TEXT, plus what they are compared with), `--no-memory`, `--memory-calls N`,
 * `--memory-leg stdio|http` (default stdio), `--memory-max-s N` (time bound of the memory phase, default 180 s;
 * quick 30 s), `--pair-rounds N` (rounds of the paired phase, `lib/paired.ts`; default 24, quick 3). It runs the
 * compiled packages (`npm run bench` builds them first), as their users do; the servers it starts run from the
 * sources.
 *
 * @packageDocumentation
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { buildConfigs, type Config } from './lib/configs.ts';
import { seedPostgres, seedSqlite } from './lib/fixtures.ts';
import { measure, warmUp } from './lib/measure.ts';
import { memoryPhase } from './lib/memory.ts';
import { ROUNDS_PER_PROCESS, pairedPhase } from './lib/paired.ts';
import { residentBytes } from './lib/proc-usage.ts';
import { figuresTable, memoryTable, ratioTable, type RoundSamples } from './lib/report.ts';
import { startServer, type ServerProcess } from './lib/server-process.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    rounds: { type: 'string' },
    only: { type: 'string' },
    'no-memory': { type: 'boolean' },
    'memory-calls': { type: 'string' },
    'memory-leg': { type: 'string' },
    'memory-max-s': { type: 'string' },
    'pair-rounds': { type: 'string' },
  },
});
const quick = values.quick === true;
const rounds = Number(values.rounds ?? (quick ? 3 : 9));
// Milliseconds per batch (sequential, 16 in flight) and warm-up calls per configuration.
const sizes = quick ? { warmMs: 200, seqMs: 100, concMs: 200 } : { warmMs: 1000, seqMs: 400, concMs: 800 };
const pairRounds = Number(values['pair-rounds'] ?? (quick ? 3 : 24));
// Milliseconds per batch of the paired phase: longer than the main rounds', since its ratios are a few percent.
const pairSizes = quick ? { seqMs: 200, concMs: 200 } : { seqMs: 800, concMs: 800 };
const memoryCalls = Number(values['memory-calls'] ?? (quick ? 5_000 : 100_000));
const memoryLeg = values['memory-leg'] === 'http' ? 'http' : 'stdio';
const memoryMaxSeconds = Number(values['memory-max-s'] ?? (quick ? 30 : 180));
const load = (): string =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');
const log = (line: string): void => void process.stderr.write(`${line}\n`);

const loadBefore = load();
// Children and the throwaway PostgreSQL cluster are stopped even when a configuration fails.
const cleanups: (() => Promise<void>)[] = [];
process.on('uncaughtException', (error) => {
  log(`bench failed: ${error.stack ?? error.message}`);
  void Promise.allSettled(cleanups.map((stop) => stop())).then(() => process.exit(1));
});
const started = Date.now();
const sqlite = await seedSqlite();
const pg = await seedPostgres();
if (pg !== undefined) cleanups.push(pg.stop);
/** The HTTP server children started so far, by name. */
const startedServers = new Map<string, Promise<ServerProcess>>();
/** Starts the HTTP server child `name` on first use, once. */
const lazy = (
  name: string,
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): (() => Promise<ServerProcess>) => {
  return () => {
    let server = startedServers.get(name);
    if (server === undefined) {
      const starting = startServer(script, args, env);
      server = starting;
      startedServers.set(name, starting);
      cleanups.push(async () => (await starting).stop());
    }
    return server;
  };
};
const { configs: all, comparisons: allComparisons } = buildConfigs(
  {
    floor: lazy('floor', 'floor.ts', []),
    bare: lazy('bare', 'bare-sdk.ts', []),
    boardSqlite: lazy('boardSqlite', 'board.ts', ['--data-dir', sqlite.dataDir!]),
    ...(pg === undefined
      ? {}
      : { boardPg: lazy('boardPg', 'board.ts', [], { DATABASE_URL: pg.board.databaseUrl! }) }),
  },
  sqlite,
  pg?.board,
);
const wanted = new Set(
  values.only === undefined
    ? all.map((c) => c.id)
    : allComparisons
        .filter((c) => c.a.includes(values.only!) || c.b.includes(values.only!))
        .flatMap((c) => [c.a, c.b]),
);
const configs = all.filter((c) => wanted.has(c.id));
const comparisons = allComparisons.filter((c) => wanted.has(c.a) && wanted.has(c.b));

const callers = new Map<string, Awaited<ReturnType<Config['open']>>>();
const results = new Map<string, RoundSamples>();
// Opened one after the other: spawning every stdio server at once overloads a small machine.
for (const config of configs) {
  const caller = await config.open();
  cleanups.push(() => caller.close());
  await warmUp(caller, sizes.warmMs);
  callers.set(config.id, caller);
  results.set(config.id, { seq: [], conc: [], peakRss: 0 });
}
log(
  `${String(configs.length)} configurations open and warm (${String(Math.round((Date.now() - started) / 1000))} s)`,
);
for (let round = 0; round < rounds; round += 1) {
  // A B A B …, the order reversed every other round so that neither side always runs first.
  const order = round % 2 === 0 ? configs : [...configs].reverse();
  for (const config of order) {
    const caller = callers.get(config.id)!;
    const r = results.get(config.id)!;
    r.seq.push(await measure(caller, sizes.seqMs, 1));
    r.conc.push(await measure(caller, sizes.concMs, 16));
    r.peakRss = Math.max(r.peakRss, residentBytes(caller.pid).peak);
  }
  log(
    `round ${String(round + 1)}/${String(rounds)} done (${String(Math.round((Date.now() - started) / 1000))} s, load ${load()})`,
  );
}
for (const caller of callers.values()) await caller.close();
const running: Record<string, { url: string; pid: number }> = {};
for (const [name, server] of startedServers) {
  const { url, pid } = await server;
  running[name] = { url, pid };
}
const paired = await pairedPhase(
  comparisons,
  { servers: running, sqlite, pg: pg?.board, rounds: pairRounds, warmMs: sizes.warmMs, ...pairSizes },
  log,
);
await Promise.all([...startedServers.values()].map(async (server) => (await server).stop()));
if (pg === undefined)
  log('PostgreSQL rows skipped: initdb is not installed and BENCH_DATABASE_URL is not set.');

const memory =
  values['no-memory'] === true
    ? undefined
    : await memoryPhase(sqlite, memoryCalls, memoryLeg, memoryMaxSeconds);
await pg?.stop();

const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const out = [
  `Command: \`${command}\`; ${new Date().toISOString()}; Node ${process.version}; ${String(cpus().length)} cores; ` +
    `load average (1/5/15 min) before ${loadBefore}, after ${load()}; ${String(rounds)} rounds side by side, ` +
    `${String(sizes.seqMs)} ms sequential and ${String(sizes.concMs)} ms with 16 in flight per configuration and round ` +
    `(after ${String(sizes.warmMs)} ms of warm-up calls); then ${String(pairRounds)} rounds of the paired phase (the ` +
    `two sides of each cost and overhead comparison back to back in processes of their own, at most ` +
    `${String(ROUNDS_PER_PROCESS)} rounds each, ${String(pairSizes.seqMs)} ms ` +
    `sequential and ${String(pairSizes.concMs)} ms with 16 in flight each); ${String(Math.round((Date.now() - started) / 1000))} s.`,
  '',
  '### Ratios (median of the per-round ratios; paired rows: 95 % confidence interval of the median in square brackets; range of the rounds in parentheses)',
  '',
  ratioTable(comparisons, results, paired),
  '',
  '### Figures (medians over rounds)',
  '',
  figuresTable(configs, results),
];
if (memory !== undefined)
  out.push(
    '',
    `### Memory (${String(memoryCalls)} mixed calls, ${memoryLeg === 'http' ? 'HTTP' : 'stdio'} 2026-07-28, 16 in flight)`,
    '',
    memoryTable(memory),
  );
process.stdout.write(`${out.join('\n')}\n`);
