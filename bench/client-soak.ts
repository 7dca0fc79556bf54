/**
 * Soak run of @recourse/client against an interop server (the v1 SDK or fastmcp): N sequential calls (default
 * 10,000) under one long-lived caller signal, printing the process warnings emitted, the listeners left on the
 * signal and the heap after a full GC at each quarter. Exits 1 when a warning was emitted or a listener was left.
 * Run: `npm run soak:client -- [calls] [stdio|stateless|stateful] [v1|fastmcp]`.
 */
import { describeRun, runSequentialCalls } from '../test/interop/sequential-calls.ts';
import type { InteropServerKind, InteropTransport } from '../test/interop/interop-servers.ts';

const calls = Number(process.argv[2] ?? 10_000);
const transport = (process.argv[3] ?? 'stdio') as InteropTransport;
const kind = (process.argv[4] ?? 'v1') as InteropServerKind;
if (
  !Number.isInteger(calls) ||
  calls < 1 ||
  !['stdio', 'stateless', 'stateful'].includes(transport) ||
  !['v1', 'fastmcp'].includes(kind)
) {
  process.stderr.write('usage: client-soak.ts [calls >= 1] [stdio|stateless|stateful] [v1|fastmcp]\n');
  process.exit(2);
}
// Bounded: 10,000 calls take seconds on loopback; an hour means something is wrong.
const report = await runSequentialCalls(kind, transport, calls, 3_600);
process.stdout.write(`${describeRun(kind, transport, report)}\n`);
if (Object.keys(report.warnings).length > 0 || report.listenersLeft > 0) process.exitCode = 1;
