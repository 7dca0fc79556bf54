/**
 * The stdio host over a real child process (`node --import tsx`), with the SDK v2 client: both eras
 * list and call, the member comes from the caller, and a cancelled slow call stops within 100 ms.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const SCRIPT = fileURLToPath(
  new URL('../packages/server/src/stdio/testing/demo-stdio-server.ts', import.meta.url),
);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STOP_WITHIN_MS = 100;

async function spawnClient(era: 'modern' | 'legacy'): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', SCRIPT],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), DEMO_MEMBER: `m_stdio_${era}` },
    stderr: 'inherit',
  });
  const client = new Client(
    { name: 'stdio-test', version: '0.0.1' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  return client;
}

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content.map((c) => c.text).join('');
}

describe('stdio host', () => {
  for (const era of ['modern', 'legacy'] as const) {
    it(`serves the ${era} era and stops a cancelled call within ${STOP_WITHIN_MS} ms`, async () => {
      const client = await spawnClient(era);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(['echo', 'slow', 'slow_report', 'whoami']);
        expect(textOf(await client.callTool({ name: 'echo', arguments: { text: `stdio ${era}` } }))).toBe(
          `stdio ${era}`,
        );
        const who = JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: {} })));
        expect(who).toMatchObject({ principal: { id: `m_stdio_${era}` }, transport: 'stdio' });

        const label = `stdio-${era}`;
        const report = async () =>
          JSON.parse(textOf(await client.callTool({ name: 'slow_report', arguments: { label } }))) as {
            outcome: string;
            endedAt?: number;
            reason?: string;
          } | null;
        const controller = new AbortController();
        const settled = client
          .callTool({ name: 'slow', arguments: { label, ms: 10_000 } }, { signal: controller.signal })
          .then(
            () => 'resolved',
            () => 'rejected',
          );
        let started = false;
        for (let i = 0; i < 200 && !started; i += 1) {
          started = (await report()) !== null;
          if (!started) await new Promise((r) => setTimeout(r, 5));
        }
        expect(started).toBe(true);
        const abortedAt = Date.now();
        controller.abort('user pressed stop');
        expect(await settled).toBe('rejected');
        let record = await report();
        for (let i = 0; i < 200 && record?.outcome === 'running'; i += 1) {
          await new Promise((r) => setTimeout(r, 5));
          record = await report();
        }
        expect(record).toMatchObject({ outcome: 'aborted', reason: 'user pressed stop' });
        console.info(
          `[measure] stdio ${era}: handler stopped ${record!.endedAt! - abortedAt} ms after abort`,
        );
        expect(record!.endedAt! - abortedAt).toBeLessThanOrEqual(STOP_WITHIN_MS);
      } finally {
        await client.close();
      }
    });
  }
});
