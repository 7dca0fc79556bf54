import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecourseClient } from './index.ts';
import type { RecourseClient } from './index.ts';

const BIN = fileURLToPath(new URL('../bin/recourse-fault-server.mjs', import.meta.url));

async function faultLog(
  client: RecourseClient,
): Promise<{ executions: { tool: string }[]; cancellations: { tool: string; reason: string }[] }> {
  return (await client.callTool('fault_log')).result.structuredContent as never;
}

describe.each(['legacy', 'auto'] as const)('over stdio (%s)', (protocol) => {
  let client: RecourseClient;
  afterEach(async () => {
    await client.close();
  });

  it('calls tools, classifies failures and cancels a call that passed its deadline', async () => {
    client = createRecourseClient({
      target: { stdio: { command: process.execPath, args: [BIN, 'stdio'] } },
      protocol,
      retry: { maxAttempts: 1 },
      timeoutMs: 15_000,
    });
    const echoed = await client.callTool('echo', { text: 'over a pipe' });
    expect(echoed.result.content).toEqual([{ type: 'text', text: 'over a pipe' }]);

    await client.callTool('fault_inject', {
      tool: 'echo',
      faults: [{ kind: 'tool_failure', category: 'conflict', code: 'STALE' }, { kind: 'hang' }],
    });
    const conflict = await client.tryCallTool('echo', { text: 'x' });
    expect(conflict.ok || conflict.error).toMatchObject({
      kind: 'tool',
      category: 'conflict',
      failure: { code: 'STALE' },
    });

    const started = Date.now();
    const hung = await client.tryCallTool('echo', { text: 'x' }, { timeoutMs: 300 });
    expect(hung.ok || hung.error.code).toBe('CALL_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(1000);

    let log = await faultLog(client);
    for (let i = 0; i < 50 && log.cancellations.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      log = await faultLog(client);
    }
    expect(log.cancellations).toHaveLength(1);
    expect(log.cancellations[0]?.tool).toBe('echo');
    expect(log.executions.filter((e) => e.tool === 'echo')).toHaveLength(1);
  });
});
