import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecourseClient } from './index.ts';
import type { RecourseClient } from './index.ts';
import { createFaultState, inMemoryFaultTarget, startFaultServer } from './testing/index.ts';
import type { FaultServer } from './testing/index.ts';

const warnings: string[] = [];
const onWarning = (warning: Error): void => {
  if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning.message);
};

let server: FaultServer | undefined;
let client: RecourseClient | undefined;
afterEach(async () => {
  process.off('warning', onWarning);
  warnings.length = 0;
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** Makes `count` sequential calls under one long-lived caller signal, as an agent with a shutdown signal does. */
async function callSequentially(target: RecourseClient, count: number, signal: AbortSignal): Promise<void> {
  for (let i = 0; i < count; i++) await target.callTool('echo', { text: String(i) }, { signal });
}

describe('listeners on long-lived signals', () => {
  it('leaves no listener on the caller signal after 2,000 sequential calls in-process, and prints no warning', async () => {
    process.on('warning', onWarning);
    client = createRecourseClient({ target: inMemoryFaultTarget(createFaultState()) });
    const shutdown = new AbortController();
    await callSequentially(client, 2_000, shutdown.signal);
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
  }, 60_000);

  it.each(['modern', 'legacy'] as const)(
    'leaves no listener on the caller signal after 150 sequential calls over HTTP (%s), and prints no warning',
    async (protocol) => {
      process.on('warning', onWarning);
      server = await startFaultServer();
      client = createRecourseClient({ target: { url: server.url }, protocol });
      const shutdown = new AbortController();
      await callSequentially(client, 150, shutdown.signal);
      expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    },
    60_000,
  );
});
