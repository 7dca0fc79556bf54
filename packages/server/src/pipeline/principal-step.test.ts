import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { decodeFailure } from '@recourse/core';
import type { Principal, PrincipalRecheck, TokenRefusal } from '../contract.ts';
import { createMemoryCallLog } from '../call-log.memory.ts';
import { createRecourseServer } from '../recourse-server.ts';
import { captureLogger, connect, member, TEST_POLICY } from '../testing/harness.ts';
import { createTestTools } from '../testing/test-tools.ts';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content ?? [];
  return content.map((c) => c.text ?? '').join('\n');
}

/** A server whose recheck hook answers from `current` (a principal or a refusal) and counts its calls. */
function setup() {
  const { world, tools } = createTestTools();
  const callLog = createMemoryCallLog();
  const state: { current: Principal | { refused: TokenRefusal }; seen: Principal[] } = {
    current: { ...member('m_1', 'maintainer'), credentialId: 'tok_1' },
    seen: [],
  };
  const recheck: PrincipalRecheck = (principal) => {
    state.seen.push(principal);
    return Promise.resolve(state.current);
  };
  const server = createRecourseServer({
    name: 'principal-step-test',
    version: '0.0.1',
    tools,
    permissions: TEST_POLICY,
    logger: captureLogger().logger,
    callLog,
    recheckPrincipal: recheck,
  });
  const startedAs: Principal = { ...member('m_1', 'maintainer'), credentialId: 'tok_1' };
  return { world, callLog, state, server, startedAs };
}

describe('principal step: recheck on stdio', () => {
  it('refuses a call whose credential was revoked, runs nothing and logs the refusal', async () => {
    const { world, callLog, state, server, startedAs } = setup();
    const client = await connect(server, startedAs);
    clients.push(client);
    expect((await client.callTool({ name: 'notes_add', arguments: { text: 'first' } })).isError).toBeFalsy();

    state.current = { refused: 'revoked' };
    const refused = await client.callTool({ name: 'notes_add', arguments: { text: 'second' } });
    expect(refused.isError).toBe(true);
    expect(decodeFailure(refused)).toMatchObject({
      category: 'permission',
      code: 'CREDENTIAL_REFUSED',
      retryable: false,
      changed: false,
    });
    const text = textOf(refused);
    expect(text).toContain('was revoked');
    expect(text).toContain('tok_1');
    expect(text).toContain(
      'Ask whoever administers this server for a new credential and connect again with it.',
    );
    expect(text).toContain('Nothing was changed.');
    expect(text).toContain('Retrying unchanged will not help.');
    expect(world.notes.map((n) => n.text)).toEqual(['first']);
    expect(world.noteRuns).toBe(1);
    expect(callLog.entries.map((e) => [e.principalId, e.outcome, e.code])).toEqual([
      ['m_1', 'ok', null],
      ['m_1', 'permission', 'CREDENTIAL_REFUSED'],
    ]);
    expect(state.seen).toEqual([startedAs, startedAs]);
  });

  it.each([
    ['expired', 'has expired'],
    ['unknown', 'is no longer known to the server'],
  ] as const)('words an %s credential', async (reason, words) => {
    const { state, server, startedAs } = setup();
    state.current = { refused: reason };
    const client = await connect(server, startedAs);
    clients.push(client);
    const refused = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(decodeFailure(refused)).toMatchObject({ code: 'CREDENTIAL_REFUSED' });
    expect(textOf(refused)).toContain(words);
  });

  it('applies a changed role to the next call of the same connection', async () => {
    const { world, state, server, startedAs } = setup();
    const client = await connect(server, startedAs);
    clients.push(client);
    expect((await client.callTool({ name: 'notes_add', arguments: { text: 'a' } })).isError).toBeFalsy();

    state.current = { ...startedAs, role: 'viewer' };
    const denied = await client.callTool({ name: 'notes_add', arguments: { text: 'b' } });
    expect(decodeFailure(denied)).toMatchObject({
      code: 'PERMISSION_DENIED',
      permission: { missing: 'notes:write', role: 'viewer' },
    });
    expect(world.notes).toHaveLength(1);

    state.current = { ...startedAs, role: 'owner', name: 'Renamed' };
    expect((await client.callTool({ name: 'notes_add', arguments: { text: 'c' } })).isError).toBeFalsy();
    expect(world.notes.map((n) => n.text)).toEqual(['a', 'c']);
  });

  it('is not called on HTTP legs, whose host verifies the token per request', async () => {
    const { state, server, startedAs } = setup();
    state.current = { refused: 'revoked' };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.createMcpServer({ principal: startedAs, transport: 'http-modern' }).connect(serverSide);
    const client = new Client({ name: 'principal-step-test', version: '0.0.1' });
    await client.connect(clientSide);
    clients.push(client);
    expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).isError).toBeFalsy();
    expect(state.seen).toEqual([]);
  });

  it('fails the call as internal when the hook itself fails, without running the tool', async () => {
    const { tools, world } = createTestTools();
    const server = createRecourseServer({
      name: 'principal-step-test',
      version: '0.0.1',
      tools,
      permissions: TEST_POLICY,
      logger: captureLogger().logger,
      recheckPrincipal: () => Promise.reject(new Error('database is locked')),
    });
    const client = await connect(server, member('m_1'));
    clients.push(client);
    const failed = await client.callTool({ name: 'notes_add', arguments: { text: 'x' } });
    expect(decodeFailure(failed)).toMatchObject({ category: 'internal', changed: false });
    expect(textOf(failed)).not.toContain('database is locked');
    expect(world.noteRuns).toBe(0);
  });
});
