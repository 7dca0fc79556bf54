/**
 * `npm run bench:profile`: a CPU profile of one server under load. Starts the server with `--cpu-prof`, makes
 * `--calls N` calls (default 3000) with 16 in flight on the 2026-07-28 era (or 2025) with the SDK client (over loopback
 * HTTP, or over stdio with `--leg stdio`, where the SDK hosts one server per connection and the profile shows
 * the pipeline's own cost), stops it, and prints where its CPU time went: self time by package/file and the top functions. The `.cpuprofile`
 * stays in the printed directory (open it in Chrome DevTools or speedscope).
 *
 * Flags: `--server board|bare` (default board), `--leg http|stdio` (default http), `--era 2026|2025` (default
 * 2026: the client pins 2026-07-28; 2025: it opens with the 2025 `initialize` handshake and the HTTP host serves
 * it stateless), `--calls N`, `--missing` (tasks_get on a missing ref), `--in-flight N` (default 16),
 * `--no-profile` (only the server's CPU time per call, read from `/proc`, without the profiler's own cost).
 *
 * @packageDocumentation
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sdkCaller, type Endpoint } from './lib/callers.ts';
import { seedSqlite } from './lib/fixtures.ts';
import { warmUp } from './lib/measure.ts';
import { cpuMicros } from './lib/proc-usage.ts';
import { startServer } from './lib/server-process.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const { values } = parseArgs({
  options: {
    server: { type: 'string' },
    leg: { type: 'string' },
    era: { type: 'string' },
    calls: { type: 'string' },
    missing: { type: 'boolean' },
    'in-flight': { type: 'string' },
    'no-profile': { type: 'boolean' },
  },
});
const calls = Number(values.calls ?? 3000);
const inFlight = Number(values['in-flight'] ?? 16);
const profiling = values['no-profile'] !== true;
const board = values.server !== 'bare';
if (values.era !== undefined && values.era !== '2026' && values.era !== '2025')
  throw new Error(`--era is 2026 or 2025, not ${values.era}`);
const era = values.era === '2025' ? 'legacy' : 'modern';
const dir = mkdtempSync(join(tmpdir(), 'recourse-profile-'));
const sqlite = await seedSqlite();
const nodeFlags = profiling ? ['--cpu-prof', '--cpu-prof-dir', dir] : [];
const script = board ? 'board.ts' : 'bare-sdk.ts';
const scriptArgs = board ? ['--data-dir', sqlite.dataDir!] : [];
const server = values.leg === 'stdio' ? undefined : await startServer(script, scriptArgs, {}, nodeFlags);
const endpoint: Endpoint =
  server === undefined
    ? { kind: 'stdio', script, args: scriptArgs, env: { RECOURSE_TOKEN: sqlite.token }, nodeFlags }
    : { kind: 'http', url: server.url, pid: server.pid, token: sqlite.token };
const spec = board
  ? { tool: 'tasks_get', args: { ref: values.missing === true ? 'T-999999' : 'T-1' } }
  : { tool: 'echo', args: { text: 'T-1 Benchmark task' } };
const caller = await sdkCaller(endpoint, era, {
  ...spec,
  expect: values.missing === true ? 'not_found' : 'success',
});
await warmUp(caller, 1000);
const cpuBefore = cpuMicros(caller.pid);
let next = 0;
await Promise.all(
  Array.from({ length: inFlight }, async () => {
    while (next < calls) {
      next += 1;
      await caller.call();
    }
  }),
);
const usedUs = cpuMicros(caller.pid) - cpuBefore;
await caller.close();
await server?.stop();
const measured = `${values.leg === 'stdio' ? 'stdio' : 'HTTP'} ${era === 'modern' ? '2026-07-28' : '2025'}, ${String(calls)} calls, ${String(inFlight)} in flight; server CPU ${(usedUs / calls).toFixed(0)} µs per call`;
if (!profiling) {
  process.stdout.write(`${measured} (no profiler)\n`);
  process.exit(0);
}
// The stdio server exits when its stdin closes; its profile is written on exit.
for (let waited = 0; waited < 100 && !readdirSync(dir).some((n) => n.endsWith('.cpuprofile')); waited += 1)
  await new Promise((resolve) => setTimeout(resolve, 100));

// The main thread's profile is the largest (tsx's loader thread writes one too).
const file = readdirSync(dir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0];
if (file === undefined) throw new Error(`no profile written to ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: ProfileNode[] };
const total = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
const byFile = new Map<string, number>();
const byFunction = new Map<string, number>();
for (const node of profile.nodes) {
  const hits = node.hitCount ?? 0;
  if (hits === 0) continue;
  const url = node.callFrame.url.replace(/^file:\/\//, '');
  const where =
    url === ''
      ? `(${node.callFrame.functionName || 'native'})`
      : (/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ??
        url.replace(/^.*?\/(packages|apps|bench)\//, '$1/'));
  byFile.set(where, (byFile.get(where) ?? 0) + hits);
  const name = `${node.callFrame.functionName || '(anonymous)'} ${where}:${String(node.callFrame.lineNumber + 1)}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + hits);
}
const top = (map: Map<string, number>, n: number): string =>
  [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([name, hits]) => `| ${((hits * 100) / total).toFixed(1)} % | ${name} |`)
    .join('\n');
process.stdout.write(
  `Profile: ${join(dir, file)} (${measured}, profiler on)\n\n| self | package or file |\n|---:|---|\n${top(byFile, 25)}\n\n| self | function |\n|---:|---|\n${top(byFunction, 30)}\n`,
);
