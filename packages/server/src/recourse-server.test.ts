import { afterEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { decodeFailure, FAILURE_META_KEY } from '@recourse/core';
import { createRecourseServer, type RecourseServerOptions } from './recourse-server.ts';
import { createMemoryCallLog } from './call-log.memory.ts';
import { CALL_META_KEY } from './pipeline/result-mapping.ts';
import { captureLogger, connect, member, TEST_POLICY } from './testing/harness.ts';
import { createTestTools, SECRET_ERROR_MESSAGE } from './testing/test-tools.ts';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function setup(extra: Partial<RecourseServerOptions> = {}) {
  const { world, tools } = createTestTools();
  const log = captureLogger();
  const callLog = createMemoryCallLog();
  const server = createRecourseServer({
    name: 'pipeline-test',
    version: '0.0.1',
    tools,
    permissions: TEST_POLICY,
    logger: log.logger,
    callLog,
    ...extra,
  });
  const open = async (principal = member('m_1')) => {
    const client = await connect(server, principal);
    clients.push(client);
    return client;
  };
  return { world, log, callLog, server, open };
}

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('\n');
}

describe('tools/list', () => {
  it('lists every tool in name order with strict JSON Schemas, annotations and the idempotency key', async () => {
    const { open } = setup();
    const client = await open();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).toContain('notes_add');

    const echo = tools.find((t) => t.name === 'echo');
    expect(echo?.title).toBe('Echo');
    expect(echo?.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
    expect(echo?.inputSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      required: ['text'],
    });
    expect(echo?.inputSchema.properties).not.toHaveProperty('idempotencyKey');

    const notes = tools.find((t) => t.name === 'notes_add');
    // notes_add declares a non-strict object: the catalog makes it strict.
    expect(notes?.inputSchema.additionalProperties).toBe(false);
    expect(notes?.inputSchema.properties?.['idempotencyKey']).toMatchObject({
      type: 'string',
      minLength: 8,
      maxLength: 200,
    });
    expect(notes?.inputSchema.required).not.toContain('idempotencyKey');
    expect(notes?._meta).toEqual({
      'dev.recourse/idempotency': { argument: 'idempotencyKey', ttlMs: 86_400_000 },
    });
  });

  it('serves prompts registered through extend beside the tools', async () => {
    const { open } = setup({
      extend: (mcp) => {
        mcp.registerPrompt('triage', { description: 'Triage the board.' }, () => ({
          messages: [{ role: 'user', content: { type: 'text', text: 'Triage.' } }],
        }));
      },
    });
    const client = await open();
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['triage']);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe('tools/call', () => {
  it('answers a success with text, structured content and a correlation id, and logs the call', async () => {
    const { open, callLog } = setup();
    const client = await open(member('m_7', 'viewer'));
    // A space cannot occur in a correlation id, so the value's absence from the log below is not luck.
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi there', times: 2 } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('hi there hi there');
    expect(result.structuredContent).toEqual({ text: 'hi there hi there', member: 'm_7' });
    const correlationId = (result._meta?.[CALL_META_KEY] as { correlationId: string }).correlationId;
    expect(correlationId).toMatch(/^c_/);
    expect(callLog.entries).toEqual([
      expect.objectContaining({ principalId: 'm_7', tool: 'echo', outcome: 'ok', code: null, correlationId }),
    ]);
    expect(JSON.stringify(callLog.entries)).not.toContain('hi there');
  });

  it('answers an unknown tool with JSON-RPC -32602 naming the tool', async () => {
    const { open, callLog } = setup();
    const client = await open();
    const error = await client.callTool({ name: 'tasks_nope', arguments: {} }).then(
      () => undefined,
      (e: unknown) => e as { code: number; message: string; data: unknown },
    );
    expect(error?.code).toBe(-32602);
    expect(error?.message).toBe('Unknown tool: tasks_nope. Call tools/list to see the tools available.');
    const correlationId = (error?.data as { correlationId?: unknown } | undefined)?.correlationId;
    expect(error?.data).toEqual({ tool: 'tasks_nope', correlationId: expect.stringMatching(/^c_/) });
    expect(callLog.entries[0]).toMatchObject({
      tool: 'tasks_nope',
      outcome: 'validation',
      code: 'UNKNOWN_TOOL',
      correlationId,
    });
  });

  it.each([
    ['wrong type', { text: 42 }, 'text'],
    ['out of range', { text: 'hi', times: 9 }, 'times'],
    ['bad enum value', { text: 'hi', priority: 'urgent' }, 'priority'],
    ['unknown key', { text: 'hi', colour: 'red' }, 'colour'],
    ['missing argument', {}, 'text'],
  ])('refuses a %s as an isError validation result, never -32602', async (_kind, args, field) => {
    const { open, callLog } = setup();
    const client = await open();
    const result = await client.callTool({ name: 'echo', arguments: args });
    expect(result.isError).toBe(true);
    const failure = decodeFailure(result);
    expect(failure).toMatchObject({
      category: 'validation',
      code: 'INVALID_ARGUMENTS',
      retryable: false,
      changed: false,
    });
    expect(textOf(result)).toContain(field);
    expect(callLog.entries[0]).toMatchObject({ outcome: 'validation', code: 'INVALID_ARGUMENTS' });
  });

  it('refuses a role without the permission, naming the permission, the role and the roles that hold it', async () => {
    const { open, world } = setup();
    const client = await open(member('m_2', 'viewer'));
    const result = await client.callTool({ name: 'notes_add', arguments: { text: 'x' } });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    expect(text).toContain('notes_add');
    expect(text).toContain('notes:write');
    expect(text).toContain('viewer');
    expect(text).toContain('owner, maintainer');
    expect(text).toContain('Nothing was changed');
    const meta = (result._meta as Record<string, Record<string, unknown>>)[FAILURE_META_KEY];
    expect(meta).toMatchObject({
      category: 'permission',
      code: 'PERMISSION_DENIED',
      retryable: false,
      changed: false,
      permission: { missing: 'notes:write', role: 'viewer', grantedTo: ['owner', 'maintainer'] },
    });
    expect(world.noteRuns).toBe(0);
  });

  it('refuses a call that comes with no caller identity when the tool needs a permission', async () => {
    const { server, world } = setup();
    const client = await connect(server, undefined);
    clients.push(client);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(result.isError).toBe(true);
    expect(decodeFailure(result)).toMatchObject({ category: 'permission', code: 'NO_IDENTITY' });
    expect(textOf(result)).toContain('no caller identity');
    expect(world.noteRuns).toBe(0);
  });

  it('turns an unexpected error into an internal failure that leaks nothing, logged in full under its id', async () => {
    const { open, log, callLog } = setup();
    const client = await open();
    const result = await client.callTool({ name: 'explode', arguments: {} });
    expect(result.isError).toBe(true);
    const text = textOf(result);
    const failure = decodeFailure(result);
    expect(failure).toMatchObject({
      category: 'internal',
      code: 'INTERNAL_ERROR',
      retryable: false,
      changed: false,
    });
    const correlationId = failure?.correlationId ?? '';
    expect(correlationId).toMatch(/^c_[0-9A-Za-z]{16,}$/);
    expect(text).toContain(correlationId);
    expect(text).toContain('explode');
    for (const secret of [
      'hunter2',
      'postgres://',
      '10.0.3.7',
      'db-primary.internal',
      '/srv/app',
      'client.js',
      'ECONNREFUSED',
      '    at ',
    ]) {
      expect(text).not.toContain(secret);
      expect(JSON.stringify(result)).not.toContain(secret);
    }
    const line = log.lines.find((l) => l['correlationId'] === correlationId && l['err'] !== undefined);
    const err = line?.['err'] as { message: string; stack: string } | undefined;
    expect(err?.message).toBe(SECRET_ERROR_MESSAGE);
    expect(err?.stack).toContain('/srv/app/node_modules/pg/lib/client.js:132:17');
    expect(callLog.entries[0]).toMatchObject({ outcome: 'internal', code: 'INTERNAL_ERROR', correlationId });
  });

  it('passes a purposeful failure through with its own text and a correlation id', async () => {
    const { open, world } = setup();
    world.failNextNotes = 1;
    const client = await open();
    const result = await client.callTool({ name: 'notes_add', arguments: { text: 'x' } });
    expect(decodeFailure(result)).toMatchObject({ category: 'not_found', code: 'NOTEBOOK_NOT_FOUND' });
    expect(textOf(result)).toContain('The notebook is gone.');
    expect(decodeFailure(result)?.correlationId).toMatch(/^c_/);
  });

  it('sends progress when the caller asked for it', async () => {
    const { open, server } = setup();
    const client = await open();
    const seen: number[] = [];
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'await_cancel', arguments: {} },
      { signal: controller.signal, onprogress: (p) => seen.push(p.progress) },
    );
    for (let i = 0; i < 100 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual([1]);
    controller.abort('done watching');
    await expect(call).rejects.toThrow();
    expect(server.inflight.size).toBeLessThanOrEqual(1);
  });

  it('dispatches raw tools beside pipeline tools and hides their exceptions', async () => {
    const { open, log } = setup({
      rawTools: [
        {
          name: 'raw_ping',
          description: 'Answers pong.',
          inputSchema: { type: 'object', properties: {} },
          handler: () => ({ content: [{ type: 'text', text: 'pong' }] }),
        },
        {
          name: 'raw_boom',
          description: 'Throws.',
          inputSchema: { type: 'object', properties: {} },
          handler: () => {
            throw new Error(SECRET_ERROR_MESSAGE);
          },
        },
      ],
    });
    const client = await open();
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['raw_ping', 'raw_boom', 'echo']));
    expect(names).toEqual([...names].sort());
    expect(textOf(await client.callTool({ name: 'raw_ping', arguments: {} }))).toBe('pong');
    const boom = await client.callTool({ name: 'raw_boom', arguments: {} });
    expect(boom.isError).toBe(true);
    expect(textOf(boom)).not.toContain('hunter2');
    const id = decodeFailure(boom)?.correlationId;
    expect(log.lines.some((l) => l['correlationId'] === id && JSON.stringify(l).includes('hunter2'))).toBe(
      true,
    );
  });

  it('refuses duplicate tool names at creation', () => {
    const { tools } = createTestTools();
    expect(() =>
      createRecourseServer({
        name: 'x',
        version: '1',
        tools: [...tools, ...tools],
        permissions: TEST_POLICY,
      }),
    ).toThrow(expect.objectContaining({ code: 'DUPLICATE_TOOL' }));
  });
});
