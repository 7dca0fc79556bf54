/**
 * Rate limits over real HTTP against the real board (SQLite rate limiter): with the default of 120 calls a
 * minute the 121st call is refused with a `rate_limit` whose `retryAfterMs` matches the window's real remaining
 * time within one second; with a short configured window the call after waiting `retryAfterMs` succeeds; limits
 * differ per configured role and kind. (That counts survive a restart is shown in test/board-cli.test.ts,
 * "keep their counts across a restart of the board".)
 *
 * Figures: `GUARDRAILS_REPORT=1 npx vitest run test/guardrails-rate-limit.test.ts` prints the retryAfterMs error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Principal } from '@recourse/server';
import {
  failureMetaOf,
  startTestBoard,
  textOf,
  type TestBoard,
} from '../apps/board/src/testing/board-host.ts';
import { memberKindOf } from '../apps/board/src/domain/member.ts';

const WINDOW_MS = 60_000;

describe('the default limit of 120 calls a minute', () => {
  let tb: TestBoard;
  beforeAll(async () => {
    tb = await startTestBoard();
  });
  afterAll(async () => {
    await tb.close();
  });

  it('refuses the 121st call with a retryAfterMs right within one second', async () => {
    const client = await tb.connect('modern', 'viewer');
    try {
      const firstSent = Date.now();
      expect((await client.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();
      const firstDone = Date.now();
      for (let i = 2; i <= 120; i += 1) {
        const result = await client.callTool({ name: 'whoami', arguments: {} });
        expect(result.isError, `call ${String(i)}`).toBeFalsy();
      }
      const refusedSent = Date.now();
      const refused = await client.callTool({ name: 'whoami', arguments: {} });
      const refusedDone = Date.now();
      expect(refused.isError).toBe(true);
      const meta = failureMetaOf(refused);
      expect(meta).toMatchObject({
        category: 'rate_limit',
        code: 'RATE_LIMITED',
        retryable: true,
        changed: false,
      });
      const text = textOf(refused);
      expect(text).toContain('120');
      expect(text).toContain('whoami');
      expect(text).toMatch(/Wait \d+ s/);
      expect(text).toContain('Nothing was changed');

      // The window opened when the server took the first call and has this much left when it refused the 121st.
      const retryAfterMs = Number(meta?.['retryAfterMs']);
      const remainingAtLeast = firstSent + WINDOW_MS - refusedDone;
      const remainingAtMost = firstDone + WINDOW_MS - refusedSent;
      expect(retryAfterMs).toBeGreaterThanOrEqual(remainingAtLeast - 1000);
      expect(retryAfterMs).toBeLessThanOrEqual(remainingAtMost + 1000);
      if (process.env['GUARDRAILS_REPORT'] === '1') {
        const midpoint = (firstSent + firstDone) / 2 + WINDOW_MS - (refusedSent + refusedDone) / 2;
        console.log(
          `rate limit: retryAfterMs ${String(retryAfterMs)}, real remaining ${String(remainingAtLeast)}…${String(remainingAtMost)} ms, error ${String(Math.round(retryAfterMs - midpoint))} ms`,
        );
      }
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('configured limits per role and kind, in a 2 s window', () => {
  const LIMITS = {
    defaultPerMinute: 4,
    perRole: { maintainer: 6 },
    perCaller: (principal: Principal) => (memberKindOf(principal) === 'assistant' ? 2 : undefined),
    windowMs: 2000,
  };
  let tb: TestBoard;
  beforeAll(async () => {
    tb = await startTestBoard({ rateLimit: LIMITS });
  });
  afterAll(async () => {
    await tb.close();
  });

  async function connectToken(token: string): Promise<Client> {
    const client = new Client({ name: 'guardrails-rate', version: '0.0.1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(tb.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  }

  /** Calls whoami until the first refusal (at most 20 calls); returns the calls served and the refusal. */
  async function untilRefused(client: Client) {
    for (let served = 0; served < 20; served += 1) {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      if (result.isError === true) return { served, refusal: result };
    }
    throw new Error('no refusal within 20 calls');
  }

  it('gives each member the limit of its role, else of its kind, else the default', async () => {
    const assistantMaintainer = await tb.board.services.members.add({
      name: 'Bot maintainer',
      kind: 'assistant',
      role: 'maintainer',
    });
    const cases = [
      { who: 'maintainer (person)', token: tb.tokens.maintainer, limit: 6 },
      {
        who: 'maintainer (assistant)',
        token: (await tb.board.services.tokens.create(assistantMaintainer.id)).token,
        limit: 6,
      },
      { who: 'contributor (assistant)', token: tb.tokens.contributor, limit: 2 },
      { who: 'viewer (person)', token: tb.tokens.viewer, limit: 4 },
    ];
    for (const { who, token, limit } of cases) {
      const client = await connectToken(token);
      try {
        const { served, refusal } = await untilRefused(client);
        expect(served, who).toBe(limit);
        expect(failureMetaOf(refusal), who).toMatchObject({ category: 'rate_limit', code: 'RATE_LIMITED' });
        expect(textOf(refusal), who).toContain(`may make ${String(limit)} tool calls`);
      } finally {
        await client.close();
      }
    }
  });

  it('serves the call made after waiting retryAfterMs', async () => {
    const client = await connectToken(tb.tokens.owner);
    try {
      const { served, refusal } = await untilRefused(client);
      expect(served).toBe(4);
      const retryAfterMs = Number(failureMetaOf(refusal)?.['retryAfterMs']);
      expect(retryAfterMs).toBeGreaterThan(0);
      expect(retryAfterMs).toBeLessThanOrEqual(2000);
      await new Promise((resolve) => setTimeout(resolve, retryAfterMs));
      const after = await client.callTool({ name: 'whoami', arguments: {} });
      expect(after.isError).toBeFalsy();
      expect(after.structuredContent).toMatchObject({ memberId: tb.members.owner.id });
    } finally {
      await client.close();
    }
  });
});
