/**
 * `npm run bench:client-parts`: where `@recourse/client`'s per-call cost on stdio comes from. One process calls
 * the bare SDK echo server (each client its own stdio child) with the bare SDK v2 client, with the SDK client
 * given each request option the Recourse client passes on every attempt (its own `AbortSignal`, a progress
 * handler, a backup timeout, its own deadline timer), with a client that has listed the tools first (as the
 * Recourse client does, for the retry-safety hints), and with `@recourse/client` itself (compiled `dist/`).
 * Batches alternate in a rotating order; each line prints the median client CPU per call, the median of the
 * per-round ratios to the bare client and the median of the per-round differences in µs.
 *
 * Flags: `--rounds N` (default 30), `--calls N` per batch (default 500), `--only a,b` (variant names),
 * `--in-flight N` (calls at once, each of N callers calling sequentially; default 1),
 * `--in-process` (`npm run bench:client-in-process`): no server process and no pipe; every client talks through a
 * `ReplayingTransport` (`lib/replaying-transport.ts`), so the figures are the clients' own work alone.
 *
 * @packageDocumentation
 */
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createRecourseClient } from '@recourse/client';
import { rotatingCpuRounds } from './lib/cpu-rounds.ts';
import { ReplayingTransport } from './lib/replaying-transport.ts';
import { median } from './lib/stats.ts';
import { serverArgs } from './lib/server-process.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string' },
    calls: { type: 'string' },
    only: { type: 'string' },
    'in-process': { type: 'boolean' },
    'in-flight': { type: 'string' },
  },
});
const rounds = Number(values.rounds ?? 30);
const calls = Number(values.calls ?? 500);
const inFlight = Number(values['in-flight'] ?? 1);

function transport(): StdioClientTransport {
  if (values['in-process'] === true) return new ReplayingTransport();
  return new StdioClientTransport({
    command: process.execPath,
    args: serverArgs('bare-sdk.ts', ['stdio']),
    stderr: 'inherit',
  });
}

async function sdkClient(listed: boolean): Promise<Client> {
  const client = new Client(
    { name: 'bench', version: '0.0.1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport());
  if (listed) await client.listTools();
  return client;
}

const params = { name: 'echo', arguments: { text: 'T-1 Benchmark task' } };
const bare = await sdkClient(false);
const listed = await sdkClient(true);
const recourse = createRecourseClient({
  name: 'bench',
  protocol: 'modern',
  timeoutMs: 120_000,
  target: { transport },
});
// One signal for every call: what a pooled controller costs the SDK (its listener), not what creating one costs.
const shared = new AbortController();
const noop = (): void => undefined;
const withTimer = async <T>(work: () => Promise<T>): Promise<T> => {
  const timer = setTimeout(noop, 120_000);
  try {
    return await work();
  } finally {
    clearTimeout(timer);
  }
};
const allOptions = {
  signal: shared.signal,
  onprogress: noop,
  timeout: 481_000,
  resetTimeoutOnProgress: true,
};

const variants: Record<string, () => Promise<unknown>> = {
  'bare SDK': () => bare.callTool(params),
  '+ signal': () => bare.callTool(params, { signal: shared.signal }),
  '+ new AbortController': () => bare.callTool(params, { signal: new AbortController().signal }),
  '+ onprogress': () => bare.callTool(params, { onprogress: noop }),
  '+ timeout options': () => bare.callTool(params, { timeout: 481_000, resetTimeoutOnProgress: true }),
  '+ own timer': () => withTimer(() => bare.callTool(params)),
  'listed tools': () => listed.callTool(params),
  'listed + all options': () => withTimer(() => listed.callTool(params, allOptions)),
  '@recourse/client': async () => {
    const outcome = await recourse.tryCallTool('echo', params.arguments);
    if (!outcome.ok) throw outcome.error;
  },
};
// The warm-up also connects the Recourse client.
const results = await rotatingCpuRounds(variants, {
  rounds,
  calls,
  warmUp: values['in-process'] === true ? 3000 : 500,
  only: values.only,
  inFlight,
});
await Promise.all([bare.close(), listed.close(), recourse.close()]);

const base = results.get('bare SDK')!;
const where = values['in-process'] === true ? 'in process' : 'stdio';
console.log(
  `${String(rounds)} rounds of ${String(calls)} calls per variant, ${inFlight === 1 ? 'sequential' : `${String(inFlight)} in flight`}, ${where}, 2026-07-28`,
);
for (const [name, list] of results) {
  const ratio = (median(list.map((cpu, i) => cpu / base[i]!)) - 1) * 100;
  const diff = median(list.map((cpu, i) => cpu - base[i]!));
  const signed = (v: number, unit: string): string => `${v >= 0 ? '+' : ''}${v.toFixed(1)} ${unit}`;
  console.log(
    `${name.padEnd(22)} client CPU µs/call median ${median(list).toFixed(1).padStart(6)}  vs bare ${signed(ratio, '%')}, ${signed(diff, 'µs')}`,
  );
}
