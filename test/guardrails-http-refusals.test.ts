/**
 * HTTP refusals, once at board level (the host's own tests, test/server-host-http.test.ts, show them in
 * detail against a demo server): the real board behind `startHttpHost` refuses a foreign Host or Origin with 403
 * and an oversized body with 413 and goes on serving; a member's flood gets 429 with `Retry-After` from whichever
 * loopback address it sends, while another member and the flooder's address itself are still served.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { startHttpHost, type HttpHost } from '@recourse/server';
import { createBoardServer, type SqliteBoardServer } from '../apps/board/src/board-server.ts';
import { rawRequest, type RawResponse } from '../packages/server/src/http/testing/raw-request.ts';

const FLOOD = { requests: 30, perMs: 60_000 };

/** One POST over node:http, so that the Host header and the local address can be chosen. */
const post = (
  url: string,
  headers: Record<string, string>,
  body: string,
  localAddress = '127.0.0.1',
): Promise<RawResponse> => rawRequest(url, { headers, body, localAddress });

let dataDir: string;
let board: SqliteBoardServer;
let host: HttpHost;
let headers: Record<string, string>;
let viewerHeaders: Record<string, string>;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'recourse-guardrails-http-'));
  board = createBoardServer({ dataDir, logger: pino({ level: 'silent' }) });
  const owner = await board.services.members.add({ name: 'Owner', kind: 'person', role: 'owner' });
  const token = (await board.services.tokens.create(owner.id)).token;
  headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${token}`,
  };
  const viewer = await board.services.members.add({ name: 'Viewer', kind: 'person', role: 'viewer' });
  viewerHeaders = {
    ...headers,
    authorization: `Bearer ${(await board.services.tokens.create(viewer.id)).token}`,
  };
  host = await startHttpHost({
    factory: board.server.createMcpServer,
    canceller: board.server.inflight,
    verifier: board.verifier,
    flood: FLOOD,
  });
});
afterAll(async () => {
  await host.close();
  await board.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const whoami = (id: number) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'whoami', arguments: {} } });

/** Expects a served whoami answer from the board. */
function expectServed(res: RawResponse): void {
  expect(res.status).toBe(200);
  expect(res.text).toContain('"role":"owner"');
}

describe('the board behind the HTTP host', () => {
  it('refuses a foreign Host or Origin with 403 and an oversized body with 413, and goes on serving', async () => {
    expectServed(await post(host.url, headers, whoami(1)));
    const foreignHost = await post(host.url, { ...headers, host: 'board.evil.example' }, whoami(2));
    expect(foreignHost.status).toBe(403);
    expect(JSON.parse(foreignHost.text)).toMatchObject({ error: { code: -31403 } });
    expect(foreignHost.text).toContain('board.evil.example');
    const foreignOrigin = await post(
      host.url,
      { ...headers, origin: 'https://board.evil.example' },
      whoami(3),
    );
    expect(foreignOrigin.status).toBe(403);
    expectServed(await post(host.url, headers, whoami(4)));

    const oversized = JSON.stringify({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'tasks_create', arguments: { title: 'x', description: 'y'.repeat(1_100_000) } },
    });
    const tooLarge = await post(host.url, headers, oversized);
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.text)).toMatchObject({ error: { code: -31413 } });
    expectServed(await post(host.url, headers, whoami(6)));
    expect(board.db.prepare('SELECT COUNT(*) AS n FROM tasks').get()).toEqual({ n: 0 });
  });

  it("answers a member's flood with 429 and Retry-After from any address while others are served", async () => {
    let refused: RawResponse | undefined;
    for (let i = 0; i < FLOOD.requests + 5 && refused === undefined; i += 1) {
      const res = await post(host.url, headers, whoami(100 + i));
      if (res.status === 429) refused = res;
      else expectServed(res);
    }
    expect(refused).toBeDefined();
    const retryAfter = Number(refused?.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(JSON.parse(refused?.text ?? '{}')).toMatchObject({ error: { code: -31429 } });
    expect(refused?.text).toContain('with this credential');
    expect((await post(host.url, headers, whoami(200))).status).toBe(429);
    // The budget is the member's: another loopback address does not renew it.
    expect((await post(host.url, headers, whoami(201), '127.0.0.2')).status).toBe(429);

    // Another member, from the same address, is counted apart and served.
    const other = await post(host.url, viewerHeaders, whoami(202));
    expect(other.status).toBe(200);
    expect(other.text).toContain('"role":"viewer"');
    // The address itself was not charged for the member's requests: without a token it is told why (401).
    const { authorization: _token, ...anonymous } = headers;
    expect((await post(host.url, anonymous, whoami(203))).status).toBe(401);
  });
});
