/**
 * The pipeline on a server that is not the board: no authentication and no permission policy at all, and
 * refusals that speak the server's own language (neutral by default, the server's guidance when configured).
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { Client } from '@modelcontextprotocol/client';
import { decodeFailure, notFound } from '@recourse/core';
import { createRecourseServer, type RecourseServerOptions } from './recourse-server.ts';
import { ANONYMOUS_PRINCIPAL, defineTool, type Principal } from './contract.ts';
import { captureLogger, connect } from './testing/harness.ts';

const clients: Client[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

const seen: Principal[] = [];
const files: Record<string, string> = { 'config.yaml': 'port: 8080' };

const readFile = defineTool({
  name: 'read_file',
  description: 'Reads a file by name.',
  input: z.strictObject({ name: z.string().describe('The file name, e.g. config.yaml.') }),
  annotations: { readOnlyHint: true },
  handler: (args, ctx) => {
    seen.push(ctx.principal);
    const text = files[args.name];
    if (text === undefined)
      throw notFound({ message: `No file ${args.name}.`, next: 'Call list_files to see the files.' });
    return Promise.resolve({ text: `/etc/app/${args.name} on 10.0.3.7: ${text}` });
  },
});

const deleteFile = defineTool({
  name: 'delete_file',
  description: 'Deletes a file.',
  input: z.strictObject({ name: z.string() }),
  annotations: { destructiveHint: true },
  permission: 'files:delete',
  cost: 10,
  handler: () => Promise.resolve({ text: 'deleted' }),
});

const policy = {
  allows: (role: string, permission: string) => role === 'admin' || permission !== 'files:delete',
  rolesGranting: (permission: string) => (permission === 'files:delete' ? ['admin'] : ['admin', 'reader']),
};

async function open(options: Partial<RecourseServerOptions>, principal?: Principal): Promise<Client> {
  const server = createRecourseServer({
    name: 'files',
    version: '1.0.0',
    tools: [readFile, deleteFile],
    logger: captureLogger().logger,
    ...options,
  });
  const client = await connect(server, principal);
  clients.push(client);
  return client;
}

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content[0]?.text ?? '').toString();
}

const BOARD_WORDS = /\b(board|member|owner)s?\b/i;

describe('a server without authentication or permissions', () => {
  it('serves its tools to a caller it knows nothing about, as the anonymous principal', async () => {
    seen.length = 0;
    const client = await open({});
    const ok = await client.callTool({ name: 'read_file', arguments: { name: 'config.yaml' } });
    expect(ok.isError).toBeFalsy();
    expect(seen).toEqual([ANONYMOUS_PRINCIPAL]);
    // A tool without a policy may be called by anyone who may connect, even one that names a permission.
    expect((await client.callTool({ name: 'delete_file', arguments: { name: 'x' } })).isError).toBeFalsy();
    const missing = await client.callTool({ name: 'read_file', arguments: { name: 'nope.yaml' } });
    expect(decodeFailure(missing)).toMatchObject({ category: 'not_found' });
    expect(textOf(missing)).toContain('No file nope.yaml. Call list_files to see the files.');
  });

  it("returns a tool's own paths and hosts in its success text by default, but never a credential", async () => {
    const client = await open({});
    const ok = await client.callTool({ name: 'read_file', arguments: { name: 'config.yaml' } });
    expect(textOf(ok)).toBe('/etc/app/config.yaml on 10.0.3.7: port: 8080');
    files['secret.env'] = 'password=hunter2';
    const secret = await client.callTool({ name: 'read_file', arguments: { name: 'secret.env' } });
    expect(textOf(secret)).toContain('/etc/app/secret.env');
    expect(textOf(secret)).not.toContain('hunter2');
  });

  it.each([
    ['all', false, false],
    ['none', true, true],
  ] as const)('redacts success texts with successRedaction %s', async (mode, keepsPath, keepsSecret) => {
    const client = await open({ successRedaction: mode });
    const ok = await client.callTool({ name: 'read_file', arguments: { name: 'secret.env' } });
    expect(textOf(ok).includes('/etc/app/secret.env')).toBe(keepsPath);
    expect(textOf(ok).includes('hunter2')).toBe(keepsSecret);
  });

  it("lets a tool choose its own success redaction, and applies the server's own rules everywhere", async () => {
    const tool = defineTool({ ...readFile, name: 'read_raw', successRedaction: 'none' });
    const failing = defineTool({
      ...readFile,
      name: 'read_broken',
      handler: () => Promise.reject(new Error('boom')),
    });
    const leaky = defineTool({
      ...readFile,
      name: 'read_ticket',
      handler: () =>
        Promise.reject(notFound({ message: 'No ticket acme_t0k3n123 here.', next: 'Call list_tickets.' })),
    });
    const client = await open({
      tools: [tool, failing, leaky, readFile],
      successRedaction: 'all',
      redactionRules: [{ name: 'acme-token', pattern: /\bacme_[a-z0-9]{8}\b/g, replace: '[redacted-acme]' }],
    });
    const raw = await client.callTool({ name: 'read_raw', arguments: { name: 'secret.env' } });
    expect(textOf(raw)).toContain('password=hunter2');
    const failure = await client.callTool({ name: 'read_ticket', arguments: { name: 'x' } });
    expect(textOf(failure)).toContain('No ticket [redacted-acme] here.');
    files['ticket.txt'] = 'see acme_abcdefgh';
    const redacted = await client.callTool({ name: 'read_file', arguments: { name: 'ticket.txt' } });
    expect(textOf(redacted)).toContain('see [redacted-acme]');
  });
});

describe('refusals on a server that is not the board', () => {
  const reader: Principal = { id: 'u_7', name: 'Ada', role: 'reader' };

  it('words a permission refusal and a rate-limit refusal without board words by default', async () => {
    const client = await open({ permissions: policy, rateLimit: { defaultPerMinute: 5 } }, reader);
    const refused = await client.callTool({ name: 'delete_file', arguments: { name: 'x' } });
    expect(decodeFailure(refused)).toMatchObject({
      category: 'permission',
      permission: { missing: 'files:delete', role: 'reader', grantedTo: ['admin'] },
    });
    expect(textOf(refused)).toContain('The caller Ada (u_7) may not call delete_file.');
    expect(textOf(refused)).not.toMatch(BOARD_WORDS);

    const admin = await open(
      { permissions: policy, rateLimit: { defaultPerMinute: 5 } },
      { id: 'u_1', role: 'admin' },
    );
    const tooCostly = await admin.callTool({ name: 'delete_file', arguments: { name: 'x' } });
    expect(decodeFailure(tooCostly)).toMatchObject({
      category: 'rate_limit',
      code: 'RATE_LIMIT_COST_TOO_HIGH',
    });
    expect(textOf(tooCostly)).toContain('The caller u_1 with role admin may make 5 tool calls a minute');
    expect(textOf(tooCostly)).not.toMatch(BOARD_WORDS);

    const results = [];
    for (let i = 0; i < 6; i++)
      results.push(await client.callTool({ name: 'read_file', arguments: { name: 'config.yaml' } }));
    const limited = results.at(-1);
    expect(decodeFailure(limited)).toMatchObject({ category: 'rate_limit', code: 'RATE_LIMITED' });
    expect(textOf(limited)).not.toMatch(BOARD_WORDS);
  });

  it('refuses a call without an identity only where a permission must be checked', async () => {
    const client = await open({ permissions: policy });
    expect(
      (await client.callTool({ name: 'read_file', arguments: { name: 'config.yaml' } })).isError,
    ).toBeFalsy();
    const refused = await client.callTool({ name: 'delete_file', arguments: { name: 'x' } });
    expect(decodeFailure(refused)).toMatchObject({ category: 'permission', code: 'NO_IDENTITY' });
    expect(textOf(refused)).not.toMatch(BOARD_WORDS);
  });

  it("uses the server's guidance: how to name the caller and whom to ask", async () => {
    const client = await open(
      {
        permissions: policy,
        guidance: {
          caller: (p) => `User ${p.id}`,
          role: 'Ask the IT desk for the admin role.',
        },
      },
      reader,
    );
    const refused = await client.callTool({ name: 'delete_file', arguments: { name: 'x' } });
    expect(textOf(refused)).toContain('User u_7 may not call delete_file.');
    expect(textOf(refused)).toContain('Ask the IT desk for the admin role.');
  });
});
