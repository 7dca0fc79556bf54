/**
 * Soak run of @recourse/client against a v1 SDK server: N sequential calls (default 10,000) under one
 * long-lived caller signal, printing the MaxListenersExceededWarning count and the heap after a full GC at
 * each quarter. Run: `npm run soak:client -- [calls] [stdio|stateless|stateful]`.
 */
import { getEventListeners } from 'node:events';
import { createRecourseClient } from '@recourse/client';
import { startInteropServer } from '../test/interop/interop-servers.ts';
import type { InteropTransport } from '../test/interop/interop-servers.ts';

const calls = Number(process.argv[2] ?? 10_000);
const transport = (process.argv[3] ?? 'stdio') as InteropTransport;
if (!Number.isInteger(calls) || calls < 1 || !['stdio', 'stateless', 'stateful'].includes(transport)) {
  process.stderr.write('usage: client-soak.ts [calls >= 1] [stdio|stateless|stateful]\n');
  process.exit(2);
}
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  process.stderr.write('run with node --expose-gc (npm run soak:client does)\n');
  process.exit(2);
}
let warnings = 0;
process.on('warning', (warning) => {
  if (warning.name === 'MaxListenersExceededWarning') warnings++;
});

const heapMb = (): number => {
  gc();
  return Math.round((process.memoryUsage().heapUsed / 1e6) * 10) / 10;
};

const server = await startInteropServer('v1', transport);
const client = createRecourseClient({ target: server.target, name: `v1-${transport}` });
const shutdown = new AbortController();
try {
  await client.callTool('flaky', { key: 'soak', failures: 0 });
  const heaps = [heapMb()];
  const started = performance.now();
  for (let i = 1; i <= calls; i++) {
    await client.callTool('flaky', { key: 'soak', failures: 0 }, { signal: shutdown.signal });
    if (i % Math.max(1, Math.floor(calls / 4)) === 0) heaps.push(heapMb());
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `${String(calls)} sequential calls over v1 ${transport} in ${seconds.toFixed(1)} s: ` +
      `${String(warnings)} MaxListenersExceededWarning, ` +
      `${String(getEventListeners(shutdown.signal, 'abort').length)} listeners left on the caller signal, ` +
      `heap after GC (MB) ${heaps.join(' → ')}\n`,
  );
} finally {
  await client.close();
  await server.stop();
}
