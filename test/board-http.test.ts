/**
 * Recourse Board over real HTTP with the SDK v2 client, for a client pinned to 2026-07-28 and a 2025-default
 * client: every tool is listed and called, and the failures a model meets are tool results it can act on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  failureMetaOf,
  startTestBoard,
  textOf,
  type Era,
  type TestBoard,
} from '../apps/board/src/testing/board-host.ts';

const TOOL_NAMES = [
  'board_export',
  'members_list',
  'tasks_assign',
  'tasks_comment',
  'tasks_create',
  'tasks_delete',
  'tasks_get',
  'tasks_import',
  'tasks_move',
  'tasks_search',
  'tasks_update',
  'whoami',
];

let tb: TestBoard;
beforeAll(async () => {
  tb = await startTestBoard();
});
afterAll(async () => {
  await tb.close();
});

const counts = () => ({
  tasks: (tb.board.db.prepare('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n,
  history: (tb.board.db.prepare('SELECT COUNT(*) AS n FROM history').get() as { n: number }).n,
  comments: (tb.board.db.prepare('SELECT COUNT(*) AS n FROM comments').get() as { n: number }).n,
});

describe.each(['modern', 'legacy'] as Era[])('board over HTTP, %s client', (era) => {
  let owner: Client;
  let contributor: Client;
  let viewer: Client;
  beforeAll(async () => {
    [owner, contributor, viewer] = await Promise.all([
      tb.connect(era, 'owner'),
      tb.connect(era, 'contributor'),
      tb.connect(era, 'viewer'),
    ]);
  });
  afterAll(async () => {
    await Promise.all([owner.close(), contributor.close(), viewer.close()]);
  });

  it('lists every tool with honest annotations and strict schemas', async () => {
    const { tools } = await owner.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const read of ['whoami', 'members_list', 'tasks_search', 'tasks_get']) {
      expect(byName.get(read)?.annotations?.readOnlyHint).toBe(true);
    }
    expect(byName.get('tasks_delete')?.annotations).toMatchObject({
      destructiveHint: true,
      readOnlyHint: false,
    });
    expect(byName.get('tasks_move')?.annotations?.idempotentHint).toBe(true);
    expect(byName.get('tasks_assign')?.annotations?.idempotentHint).toBe(true);
    expect(byName.get('tasks_create')?.annotations?.idempotentHint).toBe(false);
    expect(byName.get('tasks_update')?.description).toContain('tasks_move');
    const create = byName.get('tasks_create')?.inputSchema as {
      properties: Record<string, { description?: string }>;
      additionalProperties?: boolean;
    };
    expect(create.additionalProperties).toBe(false);
    expect(Object.keys(create.properties)).toContain('idempotencyKey');
    for (const [name, prop] of Object.entries(create.properties)) expect(prop.description, name).toBeTruthy();
  });

  it('tells an assistant who it is in plain English', async () => {
    const assistant = await tb.connect(era, 'contributor');
    try {
      const who = await assistant.callTool({ name: 'whoami', arguments: {} });
      expect(textOf(who)).toContain(`(${tb.members.contributor.id}), an assistant with role contributor.`);
    } finally {
      await assistant.close();
    }
  });

  it('calls every tool successfully', async () => {
    const who = await owner.callTool({ name: 'whoami', arguments: {} });
    expect(who.structuredContent).toMatchObject({ memberId: tb.members.owner.id, role: 'owner' });

    const members = await owner.callTool({ name: 'members_list', arguments: {} });
    expect(textOf(members)).toContain(tb.members.viewer.id);

    const key = `create-${era}-0001`;
    const created = await owner.callTool({
      name: 'tasks_create',
      arguments: {
        title: `Ship the ${era} release`,
        labels: ['release'],
        due: '2026-08-01',
        idempotencyKey: key,
      },
    });
    expect(created.isError).toBeFalsy();
    const task = (created.structuredContent as { task: { ref: string; version: number } }).task;
    expect(task.version).toBe(1);
    const replay = await owner.callTool({
      name: 'tasks_create',
      arguments: {
        title: `Ship the ${era} release`,
        labels: ['release'],
        due: '2026-08-01',
        idempotencyKey: key,
      },
    });
    expect((replay.structuredContent as { task: { ref: string } }).task.ref).toBe(task.ref);

    const found = await owner.callTool({
      name: 'tasks_search',
      arguments: { query: `${era} release`, limit: 5 },
    });
    expect(textOf(found)).toContain(task.ref);

    const got = await viewer.callTool({ name: 'tasks_get', arguments: { ref: task.ref } });
    expect(got.structuredContent).toMatchObject({ task: { ref: task.ref, status: 'todo' } });

    const updated = await owner.callTool({
      name: 'tasks_update',
      arguments: { ref: task.ref, expectedVersion: 1, description: 'Tag and publish.' },
    });
    expect(updated.structuredContent).toMatchObject({
      task: { version: 2, description: 'Tag and publish.' },
    });

    const moved = await owner.callTool({ name: 'tasks_move', arguments: { ref: task.ref, status: 'doing' } });
    expect(moved.structuredContent).toMatchObject({ task: { status: 'doing', version: 3 } });

    const assigned = await contributor.callTool({
      name: 'tasks_assign',
      arguments: { ref: task.ref, assignee: tb.members.contributor.id },
    });
    expect(assigned.isError, textOf(assigned)).toBeFalsy();
    expect(assigned.structuredContent).toMatchObject({ task: { assignee: tb.members.contributor.id } });

    const commented = await contributor.callTool({
      name: 'tasks_comment',
      arguments: { ref: task.ref, body: 'On it.', idempotencyKey: `comment-${era}-1` },
    });
    expect(textOf(commented)).toContain(task.ref);

    const imported = await owner.callTool({
      name: 'tasks_import',
      arguments: {
        tasks: [
          { title: `Imported ${era} one` },
          { title: `Imported ${era} two`, assignee: tb.members.viewer.id },
        ],
        idempotencyKey: `import-${era}-0001`,
      },
    });
    const importedTasks = (
      imported.structuredContent as { tasks: { ref: string; assignee: string | null }[] }
    ).tasks;
    expect(importedTasks).toHaveLength(2);
    expect(importedTasks[1]?.assignee).toBe(tb.members.viewer.id);

    const exported = await owner.callTool({ name: 'board_export', arguments: { limit: 200 } });
    const dump = exported.structuredContent as {
      tasks: { ref: string; comments: unknown[] }[];
      members: unknown[];
    };
    expect(dump.tasks.find((t) => t.ref === task.ref)?.comments).toHaveLength(1);
    expect(dump.tasks.map((t) => t.ref)).toEqual(expect.arrayContaining(importedTasks.map((t) => t.ref)));
    expect(dump.members.length).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(dump)).not.toMatch(/rbt_/);

    const deleted = await owner.callTool({ name: 'tasks_delete', arguments: { ref: task.ref } });
    expect(deleted.isError).toBeFalsy();
    const gone = await owner.callTool({ name: 'tasks_get', arguments: { ref: task.ref } });
    expect(gone.isError).toBe(true);
  });

  it('answers a missing ref with a not_found result naming the ref, the format and tasks_search', async () => {
    const before = counts();
    const result = await owner.callTool({ name: 'tasks_get', arguments: { ref: 'T-9999' } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('T-9999');
    expect(text).toMatch(/T-12/);
    expect(text).toContain('tasks_search');
    expect(text).toMatch(/nothing was changed/i);
    expect(failureMetaOf(result)).toMatchObject({
      category: 'not_found',
      code: 'TASK_NOT_FOUND',
      retryable: false,
      changed: false,
    });
    expect(counts()).toEqual(before);
  });

  it.each([
    ['wrong type', { title: 42 }, 'title', /42/, /string/],
    ['out of range', { title: 'x'.repeat(201) }, 'title', /x{10}/, /200/],
    [
      'bad enum',
      { title: 'ok', status: 'finished' },
      'status',
      /finished/,
      /todo[\s\S]*doing[\s\S]*review[\s\S]*done/,
    ],
    ['unknown key', { title: 'ok', priority: 'high' }, 'priority', /priority/, /title/],
  ] as const)(
    'refuses a %s argument as a validation result naming argument, value and what is accepted',
    async (_kind, args, field, value, accepted) => {
      const before = counts();
      const result = await owner.callTool({ name: 'tasks_create', arguments: args });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toContain(field);
      expect(text).toMatch(value);
      expect(text).toMatch(accepted);
      expect(failureMetaOf(result)).toMatchObject({
        category: 'validation',
        retryable: false,
        changed: false,
      });
      expect(counts()).toEqual(before);
    },
  );

  it('says a malformed ref should look like T-12', async () => {
    const result = await owner.callTool({ name: 'tasks_get', arguments: { ref: 'task nine' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/task ref like T-12/);
  });

  it('answers an unknown tool with -32602 naming the tool and tools/list', async () => {
    await expect(owner.callTool({ name: 'tasks_teleport', arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/tasks_teleport[\s\S]*tools\/list/),
    });
  });

  it('refuses a viewer creating a task, naming permission, role and roles, with nothing written', async () => {
    const before = counts();
    const result = await viewer.callTool({ name: 'tasks_create', arguments: { title: 'Sneaky' } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('tasks:create');
    expect(text).toContain('viewer');
    expect(text).toMatch(/owner, maintainer, contributor/);
    expect(failureMetaOf(result)).toMatchObject({
      category: 'permission',
      permission: {
        missing: 'tasks:create',
        role: 'viewer',
        grantedTo: ['owner', 'maintainer', 'contributor'],
      },
    });
    expect(counts()).toEqual(before);
  });

  it("refuses a contributor deleting another member's task, with nothing written", async () => {
    const created = await owner.callTool({
      name: 'tasks_create',
      arguments: { title: `Owner's ${era} task` },
    });
    const ref = (created.structuredContent as { task: { ref: string } }).task.ref;
    const before = counts();
    const result = await contributor.callTool({ name: 'tasks_delete', arguments: { ref } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('tasks:delete');
    expect(text).toContain('contributor');
    expect(text).toMatch(/owner, maintainer/);
    expect(failureMetaOf(result)).toMatchObject({ category: 'permission', changed: false });
    expect(counts()).toEqual(before);
  });

  it('imports all or nothing: an unknown assignee names the item and members_list', async () => {
    const before = counts();
    const result = await owner.callTool({
      name: 'tasks_import',
      arguments: { tasks: [{ title: 'Fine' }, { title: 'Broken', assignee: 'm_nobody99' }] },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('tasks[1].assignee');
    expect(textOf(result)).toContain('members_list');
    expect(failureMetaOf(result)).toMatchObject({
      category: 'not_found',
      code: 'MEMBER_NOT_FOUND',
      changed: false,
    });
    expect(counts()).toEqual(before);
    const refused = await contributor.callTool({ name: 'board_export', arguments: {} });
    expect(failureMetaOf(refused)).toMatchObject({
      category: 'permission',
      permission: { missing: 'board:export', role: 'contributor', grantedTo: ['owner', 'maintainer'] },
    });
  });

  it('refuses a stale expectedVersion with a conflict giving the current version and tasks_get', async () => {
    const created = await owner.callTool({ name: 'tasks_create', arguments: { title: `Versioned ${era}` } });
    const ref = (created.structuredContent as { task: { ref: string } }).task.ref;
    await owner.callTool({
      name: 'tasks_update',
      arguments: { ref, expectedVersion: 1, title: 'Second title' },
    });
    const before = counts();
    const stale = await owner.callTool({
      name: 'tasks_update',
      arguments: { ref, expectedVersion: 1, title: 'Lost update' },
    });
    expect(stale.isError).toBe(true);
    expect(textOf(stale)).toMatch(/version 2/);
    expect(textOf(stale)).toContain('tasks_get');
    expect(failureMetaOf(stale)).toMatchObject({
      category: 'conflict',
      code: 'VERSION_CONFLICT',
      changed: false,
    });
    expect(counts()).toEqual(before);
    const current = await owner.callTool({ name: 'tasks_get', arguments: { ref } });
    expect(current.structuredContent).toMatchObject({ task: { title: 'Second title', version: 2 } });
  });
});
