/**
 * The `recourse-board` binary as a user runs it: `serve` prints its URL and, on first start only, the owner's
 * token; the token works over HTTP; SIGTERM stops it cleanly; `log` shows the calls without argument values;
 * wrong usage exits 2 with one line. Also: rate-limit counts survive a restart (SQLite limiter).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { failureMetaOf, startTestBoard } from '../apps/board/src/testing/board-host.ts';
import { CLI_ENV, startServe } from '../apps/board/src/testing/serve-process.ts';

const BIN = fileURLToPath(new URL('../apps/board/bin/recourse-board.mjs', import.meta.url));
const ENV = CLI_ENV;
const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'recourse-board-cli-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function cli(...args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20_000, env: ENV });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('recourse-board serve', () => {
  it('prints the URL and the owner token on first start only, serves it, and logs calls without arguments', async () => {
    const dataDir = tempDir();
    const first = await startServe(dataDir, true);
    const lines = first.lines();
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(lines[0] ?? '')?.[1];
    expect(url).toBeDefined();
    const token = lines.find((l) => /^rbt_[A-Za-z0-9_-]{43}$/.test(l));
    expect(token).toBeDefined();
    const origin = new URL(url ?? 'http://x').origin;
    expect(lines).toContain(`Pages for people: ${origin}/board`);
    // The first start also prints a one-time link that signs the owner in to the pages.
    const link = lines.find((l) => l.startsWith(`${origin}/signin?code=`));
    expect(link).toBeDefined();
    const signinPage = await fetch(link ?? '');
    expect(signinPage.status).toBe(200);
    expect(await signinPage.text()).toContain('Sign in with a one-time link');

    const client = new Client(
      { name: 'cli-e2e', version: '0.0.1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url ?? ''), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const secretTitle = 'Quarterly plan with codeword PELICAN';
    await client.callTool({ name: 'whoami', arguments: {} });
    await client.callTool({ name: 'tasks_create', arguments: { title: secretTitle } });
    const missing = await client.callTool({ name: 'tasks_get', arguments: { ref: 'T-404' } });
    const correlationId = String(failureMetaOf(missing)?.['correlationId']);
    await client.close();
    expect(await first.stop()).toBe(0);

    const log = cli('log', '--data-dir', dataDir);
    expect(log.code).toBe(0);
    const rows = log.out.trim().split('\n');
    expect(rows[0]).toBe('time\tmember\ttool\toutcome\tcode\tduration\tcorrelation');
    expect(rows[1]).toMatch(/\ttasks_get\tnot_found\tTASK_NOT_FOUND\t\d+ms\t/);
    expect(rows[1]).toContain(correlationId);
    expect(rows[2]).toMatch(/\ttasks_create\tok\t-\t\d+ms\tc_/);
    expect(rows[3]).toMatch(/\twhoami\tok\t/);
    expect(log.out).not.toContain('PELICAN');
    expect(log.out).not.toContain('T-404');
    expect(
      cli('log', '--data-dir', dataDir, '--tool', 'whoami', '--limit', '5').out.trim().split('\n'),
    ).toHaveLength(2);

    const again = await startServe(dataDir, false);
    const secondLines = again.lines();
    expect(secondLines[0]).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(secondLines.some((l) => l.startsWith('rbt_'))).toBe(false);
    expect(secondLines.some((l) => l.includes('/signin?code='))).toBe(false);
    expect(await again.stop()).toBe(0);
  });

  it('exits 2 with one line on a wrong flag, and prints help', () => {
    const wrong = cli('serve', '--prot', '0');
    expect(wrong.code).toBe(2);
    expect(wrong.err.trim().split('\n')).toHaveLength(1);
    expect(wrong.err).toContain('--prot');
    const help = cli('tokens', 'create', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('--expires-in');
  });
});

describe('after a restart', () => {
  it('idempotency keys still replay the first result, and refuse other arguments', async () => {
    const dataDir = tempDir();
    const args = { title: 'Pay the invoice', idempotencyKey: 'invoice-2026-07' };
    const first = await startTestBoard({ dataDir });
    const client1 = await first.connect('legacy', 'maintainer');
    const created = await client1.callTool({ name: 'tasks_create', arguments: args });
    const ref = (created.structuredContent as { task: { ref: string } }).task.ref;
    await client1.close();
    await first.close(true);

    const second = await startTestBoard({ dataDir });
    try {
      const client2 = await second.connect('modern', 'maintainer');
      const replay = await client2.callTool({ name: 'tasks_create', arguments: args });
      expect((replay.structuredContent as { task: { ref: string } }).task.ref).toBe(ref);
      const reused = await client2.callTool({
        name: 'tasks_create',
        arguments: { ...args, title: 'Pay another invoice' },
      });
      expect(failureMetaOf(reused)).toMatchObject({ category: 'conflict', changed: false });
      expect(second.board.db.prepare('SELECT COUNT(*) AS n FROM tasks').get()).toEqual({ n: 1 });
      await client2.close();
    } finally {
      await second.close();
    }
  });

  it('keep their counts across a restart of the board', async () => {
    const dataDir = tempDir();
    const first = await startTestBoard({ dataDir, rateLimit: { defaultPerMinute: 3 } });
    const client1 = await first.connect('modern', 'viewer');
    for (let i = 0; i < 2; i += 1)
      expect((await client1.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();
    await client1.close();
    await first.close(true);

    const second = await startTestBoard({ dataDir, rateLimit: { defaultPerMinute: 3 } });
    try {
      const client2 = await second.connect('legacy', 'viewer');
      expect((await client2.callTool({ name: 'whoami', arguments: {} })).isError).toBeFalsy();
      const refused = await client2.callTool({ name: 'whoami', arguments: {} });
      expect(refused.isError).toBe(true);
      expect(failureMetaOf(refused)).toMatchObject({ category: 'rate_limit', retryable: true });
      expect(Number(failureMetaOf(refused)?.['retryAfterMs'])).toBeGreaterThan(30_000);
      await client2.close();
    } finally {
      await second.close();
    }
  });
});
