/**
 * `npm run bench:client`: what `@recourse/client` costs the calling process per successful call, next to the
 * bare SDK v2 client, on the same bare SDK echo server (its own process). It runs the compiled client (`dist/`),
 * as a consumer does: the sources through tsx carry a per-closure naming helper the SDK's build does not. The
 * clients alternate in batches of calls (A B A B …); each batch's client-process CPU time (user + system,
 * `process.cpuUsage`) and wall time are divided by its calls, and so is the server process's CPU time over the
 * batch. CPU time is far less sensitive to other load on the machine than throughput, and the server's work is
 * not in it, so the difference is the client's own per-call work.
 *
 * Flags: `--leg http-2026|http-2025|stdio-2026` (default http-2026), `--rounds N` (default 5), `--calls N` per
 * batch (default 2000), `--in-flight N` (N callers at once, each calling sequentially; default 1), `--only
 * sdk|recourse` (one client); `node --cpu-prof --import tsx bench/client-cpu.ts --only recourse` profiles the
 * client alone.
 *
 * @packageDocumentation
 */
import { parseArgs } from 'node:util';
import { recourseCaller, sdkCaller } from './lib/callers.ts';
import type { Caller, Endpoint, Era } from './lib/callers.ts';
import { preciseCpuMicros } from './lib/proc-usage.ts';
import { startServer } from './lib/server-process.ts';
import { median, spread } from './lib/stats.ts';

const { values } = parseArgs({
  options: {
    leg: { type: 'string' },
    rounds: { type: 'string' },
    calls: { type: 'string' },
    only: { type: 'string' },
    'in-flight': { type: 'string' },
  },
});
const leg = values.leg ?? 'http-2026';
const rounds = Number(values.rounds ?? 5);
const calls = Number(values.calls ?? 2000);
const inFlight = Math.max(1, Number(values['in-flight'] ?? 1));
const era: Era = leg === 'http-2025' ? 'legacy' : 'modern';
const spec = { tool: 'echo', args: { text: 'T-1 Benchmark task' }, expect: 'success' as const };

const server = leg.startsWith('stdio') ? undefined : await startServer('bare-sdk.ts', []);
const endpoint: Endpoint = server
  ? { kind: 'http', url: server.url, pid: server.pid }
  : { kind: 'stdio', script: 'bare-sdk.ts', args: [], env: {} };
const clients: [string, Caller][] = [];
if (values.only !== 'recourse') clients.push(['SDK client', await sdkCaller(endpoint, era, spec)]);
if (values.only !== 'sdk') clients.push(['@recourse/client', await recourseCaller(endpoint, era, spec)]);

interface Batch {
  cpuUs: number;
  wallUs: number;
  serverUs: number;
}

async function batch(caller: Caller, n: number): Promise<Batch> {
  const serverBefore = preciseCpuMicros(caller.pid);
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const each = Math.ceil(n / inFlight);
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let i = 0; i < each; i++) await caller.call();
    }),
  );
  const used = process.cpuUsage(cpu);
  const made = each * inFlight;
  return {
    cpuUs: (used.user + used.system) / made,
    wallUs: Number(process.hrtime.bigint() - started) / 1000 / made,
    serverUs: (preciseCpuMicros(caller.pid) - serverBefore) / made,
  };
}

for (const [, caller] of clients) await batch(caller, Math.min(500, calls)); // warm-up
const results = new Map<string, Batch[]>(clients.map(([name]) => [name, []]));
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? clients : [...clients].reverse();
  for (const [name, caller] of order) results.get(name)!.push(await batch(caller, calls));
}
for (const [, caller] of clients) await caller.close();
await server?.stop();

console.log(
  `leg ${leg}, ${String(rounds)} rounds of ${String(calls)} calls per client, ${inFlight === 1 ? 'sequential' : `${String(inFlight)} in flight`}`,
);
for (const [name, list] of results) {
  const cpu = list.map((r) => r.cpuUs);
  const wall = list.map((r) => r.wallUs);
  const served = list.map((r) => r.serverUs);
  console.log(
    `${name.padEnd(18)} client CPU µs/call median ${spread(cpu, 0)}, wall µs/call median ${spread(wall, 0)}, server CPU µs/call median ${spread(served, 0)}`,
  );
}
if (clients.length === 2) {
  const [sdk, recourse] = [results.get('SDK client')!, results.get('@recourse/client')!];
  const perRound = (pick: (r: Batch) => number) =>
    median(sdk.map((s, i) => pick(recourse[i]!) / pick(s) - 1)) * 100;
  console.log(
    `@recourse/client over the SDK client (median of per-round ratios): client CPU +${perRound((r) => r.cpuUs).toFixed(1)} %, wall time +${perRound((r) => r.wallUs).toFixed(1)} %, server CPU +${perRound((r) => r.serverUs).toFixed(1)} %`,
  );
}
