/**
 * Recourse Board over stdio checks who is calling on every call: the real `recourse-board stdio` binary is
 * spawned with a member token, and the CLI (in-process, on the same data directory) revokes the token or changes
 * the member's role while the session runs; the next call of the SAME session sees it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import { createBoardServer } from '../apps/board/src/board-server.ts';
import { captureIo } from '../apps/board/src/cli/cli-testing.ts';
import { runCli } from '../apps/board/src/cli/main.ts';
import { failureMetaOf, textOf, type Era } from '../apps/board/src/testing/board-host.ts';
import { connectStdioBoard } from '../apps/board/src/testing/stdio-client.ts';
import type { CallLogEntry } from '@recourse/server';

let dataDir: string;
let maintainerId: string;
let token: string;
let tokenId: string;
const clients: Client[] = [];

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'recourse-board-stdio-recheck-'));
  const board = createBoardServer({ dataDir, logger: pino({ level: 'silent' }) });
  await board.services.members.add({ name: 'Recheck Owner', kind: 'person', role: 'owner' });
  const maintainer = await board.services.members.add({
    name: 'Recheck Maint',
    kind: 'assistant',
    role: 'maintainer',
  });
  maintainerId = maintainer.id;
  const issued = await board.services.tokens.create(maintainer.id);
  token = issued.token;
  tokenId = issued.record.id;
  await board.close();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  rmSync(dataDir, { recursive: true, force: true });
});

async function spawnClient(era: Era): Promise<Client> {
  const client = await connectStdioBoard({ dataDir, token, era, name: 'board-stdio-recheck-e2e' });
  clients.push(client);
  return client;
}

/** Runs the board CLI in this process on the test's data directory; returns its output lines. */
async function cli(...argv: string[]): Promise<string[]> {
  const io = captureIo({ DATABASE_URL: '' });
  const code = await runCli([...argv, '--data-dir', dataDir], io);
  expect(code, io.errLines.join('\n')).toBe(0);
  return io.outLines;
}

/** The board's task count and its newest call-log entries, read from the data directory. */
async function readBoard(): Promise<{ tasks: number; calls: CallLogEntry[] }> {
  const board = createBoardServer({ dataDir, logger: pino({ level: 'silent' }) });
  try {
    return {
      tasks: await board.services.store.countTasks(),
      calls: await board.callLog.recent({ limit: 10 }),
    };
  } finally {
    await board.close();
  }
}

/** Waits (at most 2 s) until the call log's newest entry is for `tool`; returns it. */
async function newestCall(tool: string): Promise<CallLogEntry | undefined> {
  for (let i = 0; i < 40; i += 1) {
    const [newest] = (await readBoard()).calls;
    if (newest?.tool === tool) return newest;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

describe.each(['modern', 'legacy'] as Era[])('board over stdio re-checks the caller, %s client', (era) => {
  it('refuses the next call of the same session once its token is revoked, writing nothing', async () => {
    const client = await spawnClient(era);
    const created = await client.callTool({ name: 'tasks_create', arguments: { title: 'before revoke' } });
    expect(created.isError).toBeFalsy();
    expect((await readBoard()).tasks).toBe(1);

    expect((await cli('tokens', 'revoke', tokenId)).join('\n')).toContain(`Revoked token ${tokenId}`);

    const refused = await client.callTool({ name: 'tasks_create', arguments: { title: 'after revoke' } });
    expect(refused.isError).toBe(true);
    expect(failureMetaOf(refused)).toMatchObject({
      category: 'permission',
      code: 'CREDENTIAL_REFUSED',
      retryable: false,
      changed: false,
    });
    const text = textOf(refused);
    expect(text).toContain('was revoked');
    expect(text).toContain('Ask a board owner for a new token and restart the client with it.');
    expect(text).toContain('Nothing was changed.');
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.slice(0, 12));
    const read = await client.callTool({ name: 'whoami', arguments: {} });
    expect(failureMetaOf(read)).toMatchObject({ code: 'CREDENTIAL_REFUSED' });

    expect((await readBoard()).tasks).toBe(1);
    expect(await newestCall('whoami')).toMatchObject({
      principalId: maintainerId,
      outcome: 'permission',
      code: 'CREDENTIAL_REFUSED',
    });
    expect((await readBoard()).calls.map((c) => [c.tool, c.code])).toEqual([
      ['whoami', 'CREDENTIAL_REFUSED'],
      ['tasks_create', 'CREDENTIAL_REFUSED'],
      ['tasks_create', null],
    ]);
  });

  it('applies a role change to the next call of the same session', async () => {
    const client = await spawnClient(era);
    expect(
      (await client.callTool({ name: 'tasks_create', arguments: { title: 'as maintainer' } })).isError,
    ).toBeFalsy();

    expect((await cli('members', 'role', maintainerId, 'viewer')).join('\n')).toContain('is now viewer');

    const denied = await client.callTool({ name: 'tasks_create', arguments: { title: 'as viewer' } });
    expect(failureMetaOf(denied)).toMatchObject({
      category: 'permission',
      code: 'PERMISSION_DENIED',
      changed: false,
    });
    expect(textOf(denied)).toContain('your role is viewer');
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.structuredContent).toMatchObject({ memberId: maintainerId, role: 'viewer' });
    expect((await readBoard()).tasks).toBe(1);
  });
});
