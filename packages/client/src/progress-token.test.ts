import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '@modelcontextprotocol/server';
import { createRecourseClient } from './index.ts';
import type { CallProgress, CallSuccess, RecourseClient } from './index.ts';
import { hostSdkServers } from './sdk-http-host.test-helper.ts';
import type { SdkHttpHost } from './sdk-http-host.test-helper.ts';

/** A server whose `work` reports two steps of progress when its request carries a token, and says if it did. */
function reportingServer(): McpServer {
  const server = new McpServer({ name: 'reporting', version: '0.0.1' });
  server.registerTool('work', { description: 'Reports progress when asked to.' }, async (ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    if (token !== undefined) {
      for (const progress of [1, 2]) {
        await ctx.mcpReq.notify({
          method: 'notifications/progress',
          params: { progressToken: token, progress, total: 2 },
        });
      }
    }
    return { content: [{ type: 'text', text: token === undefined ? 'no token' : 'token' }] };
  });
  return server;
}

let host: SdkHttpHost;
const clients: RecourseClient[] = [];

beforeAll(async () => {
  host = await hostSdkServers(reportingServer);
});
afterAll(() => host.close());
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function textOf(success: CallSuccess): string {
  return (success.result.content[0] as { text: string }).text;
}

describe.each(['modern', 'legacy'] as const)('the progress token on a call (%s era)', (protocol) => {
  function client(): RecourseClient {
    const made = createRecourseClient({ target: { url: host.url }, protocol, retry: { maxAttempts: 1 } });
    clients.push(made);
    return made;
  }

  it('is sent by default, since progress extends the deadline up to the hard maximum', async () => {
    expect(textOf(await client().callTool('work', {}, { timeoutMs: 5000 }))).toBe('token');
  });

  it('is not sent when nothing could use the progress: no callback and a deadline progress cannot move', async () => {
    const recourse = client();
    expect(textOf(await recourse.callTool('work', {}, { timeoutMs: 5000, maxTimeoutMs: 5000 }))).toBe(
      'no token',
    );
    // A hard maximum below the deadline is raised to it, so progress cannot move that deadline either.
    expect(textOf(await recourse.callTool('work', {}, { timeoutMs: 5000, maxTimeoutMs: 10 }))).toBe(
      'no token',
    );
  });

  it("is sent for a caller's progress callback, which receives the progress, whatever the deadline", async () => {
    const seen: CallProgress[] = [];
    const result = await client().callTool(
      'work',
      {},
      { timeoutMs: 5000, maxTimeoutMs: 5000, onProgress: (p) => seen.push(p) },
    );
    expect(textOf(result)).toBe('token');
    expect(seen.map((p) => `${String(p.progress)}/${String(p.total)}`)).toEqual(['1/2', '2/2']);
  });
});
