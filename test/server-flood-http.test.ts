/**
 * The flood guard under load over real HTTP (loopback): a stream of unauthenticated requests from one local
 * process is refused with 429 while a member's calls keep being served, and other loopback source addresses
 * share the flooder's budget.
 */
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal, TokenVerifier } from '@recourse/server';
import { startHttpHost, type HttpHost } from '../packages/server/src/http/http-host.ts';
import { createDemoFactory, createDemoState } from '../packages/server/src/http/testing/demo-server.ts';

const member: Principal = { id: 'm_owner', name: 'Owner', role: 'owner', attributes: { kind: 'person' } };
const verifier: TokenVerifier = {
  verify: (token) =>
    Promise.resolve(
      token === 'tok-owner' ? { ok: true, principal: member } : { ok: false, reason: 'unknown' },
    ),
};

const FLOOD_REQUESTS = 2_000;
const FLOOD_WORKERS = 16;
/** A bound on the flood's wall time on a slow machine; the flood stops here even if not all were sent. */
const FLOOD_TIME_BOUND_MS = 60_000;
/** The member sends at most this many calls while the flood runs. */
const MEMBER_CALLS_BOUND = 500;
const LIMIT = { requests: 600, perMs: 120_000 };

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function callBody(id: number, text: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text } },
  });
}

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly retryAfter: string | undefined;
}

function send(
  url: string,
  agent: Agent,
  localAddress: string,
  headers: Record<string, string>,
  body: string,
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers, agent, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
          retryAfter: res.headers['retry-after'],
        }),
      );
    });
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('request timed out')));
    req.end(body);
  });
}

describe('HTTP host flood guard under load', () => {
  let host: HttpHost;
  const agents: Agent[] = [];
  const agent = (): Agent => {
    const made = new Agent({ keepAlive: true, maxSockets: FLOOD_WORKERS });
    agents.push(made);
    return made;
  };
  beforeAll(async () => {
    host = await startHttpHost({
      factory: createDemoFactory(createDemoState()),
      verifier,
      flood: LIMIT,
    });
  });
  afterAll(async () => {
    for (const made of agents) made.destroy();
    await host.close();
  });

  it('refuses 2,000 unauthenticated requests from 127.0.0.1 beyond the limit while a member keeps being served', async () => {
    const floodAgent = agent();
    const memberAgent = agent();
    const statuses = new Map<number, number>();
    let sent = 0;
    let firstRefusal: Answer | undefined;
    let flooding = true;
    const started = Date.now();

    const worker = async (): Promise<void> => {
      while (sent < FLOOD_REQUESTS && Date.now() - started < FLOOD_TIME_BOUND_MS) {
        sent += 1;
        const answer = await send(host.url, floodAgent, '127.0.0.1', JSON_HEADERS, callBody(sent, 'junk'));
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        if (answer.status === 429) firstRefusal ??= answer;
      }
    };
    const memberStatuses: number[] = [];
    let memberEchoed = 0;
    const memberLoop = async (): Promise<void> => {
      // Alternating loopback source addresses: the member is counted under its principal, not its address.
      while (flooding && memberStatuses.length < MEMBER_CALLS_BOUND) {
        const id = memberStatuses.length;
        const answer = await send(
          host.url,
          memberAgent,
          id % 2 === 0 ? '127.0.0.1' : '127.0.0.2',
          { ...JSON_HEADERS, authorization: 'Bearer tok-owner' },
          callBody(100_000 + id, `member call ${id}`),
        );
        memberStatuses.push(answer.status);
        if (answer.text.includes(`member call ${id}`)) memberEchoed += 1;
      }
    };

    const member = memberLoop();
    await Promise.all(Array.from({ length: FLOOD_WORKERS }, () => worker()));
    const floodMs = Date.now() - started;
    flooding = false;
    await member;

    const refused = statuses.get(429) ?? 0;
    const unauthorized = statuses.get(401) ?? 0;
    console.log(
      `flood: ${sent} unauthenticated requests from 127.0.0.1 in ${floodMs} ms ` +
        `(${Math.round((sent * 1000) / floodMs)}/s): ${unauthorized} × 401, ${refused} × 429; ` +
        `member: ${memberStatuses.length} calls meanwhile, ` +
        `${memberStatuses.filter((s) => s === 200).length} × 200, ${memberEchoed} echoed`,
    );

    expect(sent).toBe(FLOOD_REQUESTS);
    // The flooder gets its budget (answered 401: no token) and then 429 for everything else.
    expect(unauthorized).toBe(LIMIT.requests);
    expect(refused).toBe(FLOOD_REQUESTS - LIMIT.requests);
    expect(Number(firstRefusal?.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(firstRefusal!.text)).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -31429 },
    });
    // The member was served throughout: every call 200 with its own answer, none 429.
    expect(memberStatuses.length).toBeGreaterThanOrEqual(1);
    expect(memberStatuses.every((s) => s === 200)).toBe(true);
    expect(memberEchoed).toBe(memberStatuses.length);

    // Other loopback source addresses are the same machine: they share the spent budget.
    for (const localAddress of ['127.0.0.2', '127.0.0.3']) {
      const other = await send(host.url, agent(), localAddress, JSON_HEADERS, callBody(1, 'escape?'));
      expect(other.status, localAddress).toBe(429);
      const badToken = await send(
        host.url,
        agent(),
        localAddress,
        { ...JSON_HEADERS, authorization: 'Bearer tok-guessed' },
        callBody(2, 'escape?'),
      );
      expect(badToken.status, localAddress).toBe(429);
    }
    // And the member, after the flood, from a third address.
    const after = await send(
      host.url,
      agent(),
      '127.0.0.3',
      { ...JSON_HEADERS, authorization: 'Bearer tok-owner' },
      callBody(3, 'after the flood'),
    );
    expect(after.status).toBe(200);
    expect(after.text).toContain('after the flood');
  }, 120_000);
});
