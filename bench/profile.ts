/**
 * `npm run bench:profile`: a CPU profile of one server under load. Starts the server with `--cpu-prof`, makes
 * `--calls N` calls (default 3000) with 16 in flight on the HTTP 2026-07-28 leg with the SDK client, stops it,
 * and prints where its CPU time went: self time by package/file and the top functions. The `.cpuprofile`
 * stays in the printed directory (open it in Chrome DevTools or speedscope).
 *
 * Flags: `--server board|bare` (default board), `--calls N`, `--missing` (tasks_get on a missing ref).
 *
 * @packageDocumentation
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sdkCaller } from './lib/callers.ts';
import { seedSqlite } from './lib/fixtures.ts';
import { warmUp } from './lib/measure.ts';
import { startServer } from './lib/server-process.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

const { values } = parseArgs({
  options: { server: { type: 'string' }, calls: { type: 'string' }, missing: { type: 'boolean' } },
});
const calls = Number(values.calls ?? 3000);
const board = values.server !== 'bare';
const dir = mkdtempSync(join(tmpdir(), 'recourse-profile-'));
const sqlite = await seedSqlite();
const server = await startServer(
  board ? 'board.ts' : 'bare-sdk.ts',
  board ? ['--data-dir', sqlite.dataDir!] : [],
  {},
  ['--cpu-prof', '--cpu-prof-dir', dir],
);
const spec = board
  ? { tool: 'tasks_get', args: { ref: values.missing === true ? 'T-999999' : 'T-1' } }
  : { tool: 'echo', args: { text: 'T-1 Benchmark task' } };
const caller = await sdkCaller(
  { kind: 'http', url: server.url, pid: server.pid, token: sqlite.token },
  'modern',
  { ...spec, expect: values.missing === true ? 'not_found' : 'success' },
);
await warmUp(caller, 1000);
let next = 0;
await Promise.all(
  Array.from({ length: 16 }, async () => {
    while (next < calls) {
      next += 1;
      await caller.call();
    }
  }),
);
await caller.close();
await server.stop();

const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
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
  `Profile: ${join(dir, file)} (${String(calls)} calls, 16 in flight)\n\n| self | package or file |\n|---:|---|\n${top(byFile, 25)}\n\n| self | function |\n|---:|---|\n${top(byFunction, 30)}\n`,
);
