/**
 * The HTTP and stdio hosts in front of the real pipeline (`createRecourseServer`): the principal the
 * host verified reaches the tool, and a 2025-leg cancellation reaches the pipeline's in-flight registry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { pino } from 'pino';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createRecourseServer,
  defineTool,
  startHttpHost,
  type HttpHost,
  type Principal,
  type TokenVerifier,
} from '@recourse/server';

const frank: Principal = { id: 'm_frank', name: 'Frank', role: 'owner', attributes: { kind: 'assistant' } };
const verifier: TokenVerifier = {
  verify: (token) =>
    Promise.resolve(
      token === 'tok-frank' ? { ok: true, principal: frank } : { ok: false, reason: 'unknown' },
    ),
};
const outcomes = new Map<string, { outcome: 'finished' | 'aborted'; at: number }>();

const tools = [
  defineTool({
    name: 'whoami',
    description: 'Says who is calling.',
    input: z.object({}).strict(),
    annotations: { readOnlyHint: true },
    permission: 'board:read',
    handler: (_args, ctx) => Promise.resolve({ text: `${ctx.principal.id} ${ctx.principal.role}` }),
  }),
  defineTool({
    name: 'wait',
    description: 'Waits, watching its signal.',
    input: z.object({ label: z.string(), ms: z.number().int() }).strict(),
    annotations: { readOnlyHint: true },
    permission: 'board:read',
    deadlineMs: 20_000,
    handler: async ({ label, ms }, ctx) => {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      outcomes.set(label, { outcome: ctx.signal.aborted ? 'aborted' : 'finished', at: Date.now() });
      return { text: 'waited' };
    },
  }),
];

describe('hosts in front of createRecourseServer', () => {
  let host: HttpHost;
  let server: ReturnType<typeof createRecourseServer>;
  beforeAll(async () => {
    server = createRecourseServer({
      name: 'pipeline-host-test',
      version: '0.0.1',
      tools,
      permissions: { allows: () => true, rolesGranting: () => ['owner'] },
      logger: pino({ enabled: false }),
    });
    host = await startHttpHost({ factory: server.createMcpServer, canceller: server.inflight, verifier });
  });
  afterAll(async () => {
    await host.close();
  });

  for (const era of ['modern', 'legacy'] as const) {
    it(`passes the verified principal to the pipeline and cancels through it (${era})`, async () => {
      const client = new Client(
        { name: 'pipeline-host-test', version: '0.0.1' },
        era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(host.url), {
          requestInit: { headers: { authorization: 'Bearer tok-frank' } },
        }),
      );
      try {
        const who = await client.callTool({ name: 'whoami', arguments: {} });
        expect((who.content as { text: string }[])[0]?.text).toBe('m_frank owner');
        const label = `pipeline-${era}`;
        const controller = new AbortController();
        const settled = client
          .callTool({ name: 'wait', arguments: { label, ms: 10_000 } }, { signal: controller.signal })
          .then(
            () => 'resolved',
            () => 'rejected',
          );
        for (let i = 0; i < 600 && server.inflight.size === 0; i += 1)
          await new Promise((r) => setTimeout(r, 5));
        expect(server.inflight.size).toBe(1);
        const abortedAt = Date.now();
        controller.abort('user pressed stop');
        expect(await settled).toBe('rejected');
        for (let i = 0; i < 400 && !outcomes.has(label); i += 1) await new Promise((r) => setTimeout(r, 5));
        expect(outcomes.get(label)?.outcome).toBe('aborted');
        expect(outcomes.get(label)!.at - abortedAt).toBeLessThanOrEqual(100);
      } finally {
        await client.close();
      }
    });
  }
});
