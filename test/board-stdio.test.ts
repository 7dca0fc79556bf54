/**
 * Recourse Board over stdio: `recourse-board stdio` spawned with a member token in RECOURSE_TOKEN, driven by the
 * SDK v2 client pinned to 2026-07-28 and by a 2025-default client; every tool is listed and called.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import { createBoardServer } from '../apps/board/src/board-server.ts';
import { failureMetaOf, textOf, type Era } from '../apps/board/src/testing/board-host.ts';
import { connectStdioBoard } from '../apps/board/src/testing/stdio-client.ts';

let dataDir: string;
let ownerToken: string;
let ownerId: string;
let viewerToken: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'recourse-board-stdio-'));
  const board = createBoardServer({ dataDir, logger: pino({ level: 'silent' }) });
  const owner = await board.services.members.add({ name: 'Stdio Owner', kind: 'assistant', role: 'owner' });
  const viewer = await board.services.members.add({ name: 'Stdio Viewer', kind: 'person', role: 'viewer' });
  ownerId = owner.id;
  ownerToken = (await board.services.tokens.create(owner.id)).token;
  viewerToken = (await board.services.tokens.create(viewer.id)).token;
  await board.close();
});
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

async function spawnClient(era: Era, token: string): Promise<Client> {
  return connectStdioBoard({ dataDir, token, era, name: 'board-stdio-e2e' });
}

describe.each(['modern', 'legacy'] as Era[])('board over stdio, %s client', (era) => {
  it('lists and calls every tool as the member of the token', async () => {
    const client = await spawnClient(era, ownerToken);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(12);
      const who = await client.callTool({ name: 'whoami', arguments: {} });
      expect(who.structuredContent).toMatchObject({ memberId: ownerId, role: 'owner', kind: 'assistant' });
      expect(textOf(await client.callTool({ name: 'members_list', arguments: {} }))).toContain(
        'Stdio Viewer',
      );

      const created = await client.callTool({
        name: 'tasks_create',
        arguments: { title: `stdio ${era}`, idempotencyKey: `stdio-${era}-create` },
      });
      const ref = (created.structuredContent as { task: { ref: string } }).task.ref;
      expect(
        textOf(await client.callTool({ name: 'tasks_search', arguments: { query: `stdio ${era}` } })),
      ).toContain(ref);
      expect(
        (await client.callTool({ name: 'tasks_get', arguments: { ref } })).structuredContent,
      ).toMatchObject({
        task: { ref, version: 1 },
      });
      const updated = await client.callTool({
        name: 'tasks_update',
        arguments: { ref, expectedVersion: 1, labels: ['cli'] },
      });
      expect(updated.structuredContent).toMatchObject({ task: { labels: ['cli'], version: 2 } });
      const moved = await client.callTool({ name: 'tasks_move', arguments: { ref, status: 'review' } });
      expect(moved.structuredContent).toMatchObject({ task: { status: 'review' } });
      const assigned = await client.callTool({ name: 'tasks_assign', arguments: { ref, assignee: ownerId } });
      expect(assigned.structuredContent).toMatchObject({ task: { assignee: ownerId } });
      const comment = await client.callTool({
        name: 'tasks_comment',
        arguments: { ref, body: 'from stdio' },
      });
      expect(comment.isError).toBeFalsy();
      const imported = await client.callTool({
        name: 'tasks_import',
        arguments: { tasks: [{ title: `imported ${era}` }] },
      });
      expect(textOf(imported)).toMatch(/^Imported 1 task as T-\d+\.$/);
      const exported = await client.callTool({ name: 'board_export', arguments: {} });
      expect(JSON.stringify(exported.structuredContent)).toContain('from stdio');
      const deleted = await client.callTool({ name: 'tasks_delete', arguments: { ref } });
      expect(deleted.isError).toBeFalsy();

      const missing = await client.callTool({ name: 'tasks_get', arguments: { ref } });
      expect(failureMetaOf(missing)).toMatchObject({
        category: 'not_found',
        code: 'TASK_NOT_FOUND',
        changed: false,
      });
      expect(textOf(missing)).toContain(ref);
    } finally {
      await client.close();
    }
  });

  it("applies the token member's role", async () => {
    const client = await spawnClient(era, viewerToken);
    try {
      const refused = await client.callTool({ name: 'tasks_create', arguments: { title: 'viewer try' } });
      expect(failureMetaOf(refused)).toMatchObject({ category: 'permission' });
      expect(textOf(refused)).toContain('viewer');
    } finally {
      await client.close();
    }
  });
});
