/**
 * `npm run bench:error-path`: the board's error path (`tasks_get` on a missing ref, an `isError` result with
 * `TASK_NOT_FOUND`) against its success path (`tasks_get T-1`), on one connection to one server process, in
 * alternating batches (success, missing, missing, success, …), so that both meet the same process, JIT state,
 * database and machine load. For each leg it prints the server's CPU time per call (all its threads, from the
 * scheduler's nanosecond counters in `/proc`) and the client's
 * calls per second, as medians over the rounds, the median of the per-round ratios (missing ÷ success) with
 * their range, and the CPU per call over all rounds together (where a rare long pause, such as a full garbage
 * collection, weighs by its length instead of deciding a round).
 *
 * Flags: `--leg stdio|http-2026|http-2025` (repeatable as a comma list; default all three), `--in-flight N`
 * (default 1: sequential; comma list allowed, e.g. `1,16`), `--rounds N` (default 21), `--batch-ms N` (length of
 * one batch, default 500).
 *
 * @packageDocumentation
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sdkCaller, type CallSpec, type Endpoint, type Era } from './lib/callers.ts';
import { seedSqlite } from './lib/fixtures.ts';
import { measure, warmUp, type Sample } from './lib/measure.ts';
import { startServer } from './lib/server-process.ts';
import { median, spread } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    leg: { type: 'string' },
    'in-flight': { type: 'string' },
    rounds: { type: 'string' },
    'batch-ms': { type: 'string' },
  },
});
const LEGS: Readonly<Record<string, { http: boolean; era: Era }>> = {
  stdio: { http: false, era: 'modern' },
  'http-2026': { http: true, era: 'modern' },
  'http-2025': { http: true, era: 'legacy' },
};
const legs = (values.leg ?? 'stdio,http-2026,http-2025').split(',');
for (const leg of legs)
  if (!(leg in LEGS)) throw new Error(`--leg is one of ${Object.keys(LEGS).join(', ')}`);
const concurrencies = (values['in-flight'] ?? '1').split(',').map(Number);
const rounds = Number(values.rounds ?? 21);
const batchMs = Number(values['batch-ms'] ?? 500);

const GET: CallSpec = { tool: 'tasks_get', args: { ref: 'T-1' }, expect: 'success' };
const MISSING: CallSpec = { tool: 'tasks_get', args: { ref: 'T-999999' }, expect: 'not_found' };

const sqlite = await seedSqlite();
const load = (): string =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');
process.stdout.write(
  `error path vs success path: ${String(rounds)} rounds of ${String(batchMs)} ms batches per path; load average before ${load()}\n\n` +
    '| leg | in flight | server CPU µs/call success / missing (medians) | missing ÷ success (CPU, per round) | server CPU µs/call over all rounds, success / missing = ratio | calls/s success / missing | success ÷ missing (calls/s) |\n' +
    '| --- | --: | --: | --: | --: | --: | --: |\n',
);
for (const legName of legs) {
  const leg = LEGS[legName]!;
  const args = ['--data-dir', sqlite.dataDir!];
  const server = leg.http ? await startServer('board.ts', args) : undefined;
  const endpoint: Endpoint =
    server === undefined
      ? { kind: 'stdio', script: 'board.ts', args, env: { RECOURSE_TOKEN: sqlite.token } }
      : { kind: 'http', url: server.url, pid: server.pid, token: sqlite.token };
  const caller = await sdkCaller(endpoint, leg.era, GET);
  const paths = { success: caller, missing: { ...caller, call: caller.callWith(MISSING) } };
  await warmUp(paths.success, 1000);
  await warmUp(paths.missing, 1000);
  for (const inFlight of concurrencies) {
    const samples: { success: Sample[]; missing: Sample[] } = { success: [], missing: [] };
    for (let round = 0; round < rounds; round += 1) {
      // Alternate which path goes first, so that neither always follows the other.
      const order = round % 2 === 0 ? (['success', 'missing'] as const) : (['missing', 'success'] as const);
      for (const path of order) samples[path].push(await measure(paths[path], batchMs, inFlight));
    }
    const cpu = (path: 'success' | 'missing'): number => median(samples[path].map((s) => s.serverCpuUs));
    const rate = (path: 'success' | 'missing'): number => median(samples[path].map((s) => s.callsPerSecond));
    const cpuRatios = samples.missing.map((m, i) => m.serverCpuUs / samples.success[i]!.serverCpuUs);
    // Over all rounds: total CPU over total calls, so that a rare pause (a full collection) counts once.
    const mean = (path: 'success' | 'missing'): number =>
      samples[path].reduce((sum, s) => sum + s.serverCpuUs * s.calls, 0) /
      samples[path].reduce((sum, s) => sum + s.calls, 0);
    const rateRatios = samples.missing.map((m, i) => samples.success[i]!.callsPerSecond / m.callsPerSecond);
    process.stdout.write(
      `| ${legName} | ${String(inFlight)} | ${cpu('success').toFixed(0)} / ${cpu('missing').toFixed(0)} | ${spread(cpuRatios)} | ${mean('success').toFixed(0)} / ${mean('missing').toFixed(0)} = ${(mean('missing') / mean('success')).toFixed(2)} | ${rate('success').toFixed(0)} / ${rate('missing').toFixed(0)} | ${spread(rateRatios)} |\n`,
    );
  }
  await caller.close();
  await server?.stop();
}
process.stdout.write(`\nload average after ${load()}\n`);
process.exit(0);
