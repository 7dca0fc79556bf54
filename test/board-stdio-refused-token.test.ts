/**
 * `recourse-board stdio` started with a token it refuses (revoked, expired, unknown or missing) still serves
 * the protocol: an SDK client connects and lists tools, and its first tool call answers CREDENTIAL_REFUSED
 * with the reason in the text, writing nothing; the reason also goes to stderr.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createBoardServer } from '../apps/board/src/board-server.ts';
import { failureMetaOf, textOf } from '../apps/board/src/testing/board-host.ts';
import { connectStdioBoard } from '../apps/board/src/testing/stdio-client.ts';

let dataDir: string;
let revoked: string;
let expired: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'recourse-board-stdio-refused-'));
  let now = new Date('2026-01-01T00:00:00Z');
  const board = createBoardServer({ dataDir, logger: pino({ level: 'silent' }), now: () => now });
  const member = await board.services.members.add({ name: 'Refused One', kind: 'assistant', role: 'owner' });
  const issued = await board.services.tokens.create(member.id);
  await board.services.tokens.revoke(issued.record.id);
  revoked = issued.token;
  expired = (await board.services.tokens.create(member.id, 1000)).token;
  now = new Date();
  await board.close();
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('recourse-board stdio with a refused token', () => {
  it.each([
    ['revoked', () => revoked, 'was revoked'],
    ['expired', () => expired, 'has expired'],
    ['unknown', () => 'rbt_' + 'x'.repeat(43), 'is no longer known'],
  ])(
    'with a %s token answers the first tool call with CREDENTIAL_REFUSED and writes nothing',
    async (_, token, words) => {
      const client = await connectStdioBoard({ dataDir, token: token(), era: 'modern' });
      try {
        const tools = await client.listTools();
        expect(tools.tools.map((t) => t.name)).toContain('tasks_create');
        const result = await client.callTool({
          name: 'tasks_create',
          arguments: { title: 'must not exist' },
        });
        expect(failureMetaOf(result)).toMatchObject({
          category: 'permission',
          code: 'CREDENTIAL_REFUSED',
          retryable: false,
          changed: false,
        });
        const text = textOf(result);
        expect(text).toContain(words);
        expect(text).toContain('was refused');
        expect(text).toMatch(/new token/);
        const again = await client.callTool({ name: 'whoami', arguments: {} });
        expect(failureMetaOf(again)).toMatchObject({ code: 'CREDENTIAL_REFUSED' });
      } finally {
        await client.close();
      }
      const board = createBoardServer({ dataDir, logger: pino({ level: 'silent' }) });
      expect((board.db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n).toBe(0);
      await board.close();
    },
  );
});
