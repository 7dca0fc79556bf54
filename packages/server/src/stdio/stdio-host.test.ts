import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../contract.ts';
import { createDemoFactory, createDemoState } from '../http/testing/demo-server.ts';
import { startStdioHost } from './stdio-host.ts';

const erin: Principal = { id: 'm_erin', name: 'Erin', role: 'viewer', attributes: { kind: 'assistant' } };

/** Collects JSON lines written to `stream`; `next()` waits (at most 3 s) for the next one. */
function lines(stream: PassThrough): { next(): Promise<Record<string, unknown>> } {
  const queue: Record<string, unknown>[] = [];
  let buffer = '';
  stream.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      queue.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
      buffer = buffer.slice(nl + 1);
    }
  });
  return {
    async next() {
      for (let i = 0; i < 600 && queue.length === 0; i += 1) await new Promise((r) => setTimeout(r, 5));
      const line = queue.shift();
      if (line === undefined) throw new Error('no line on stdout within 3 s');
      return line;
    },
  };
}

const send = (stdin: PassThrough, message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);

describe('startStdioHost', () => {
  it('serves the configured principal on the stdio leg and reports when stdin ends', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = lines(stdout);
    const host = await startStdioHost({
      factory: createDemoFactory(createDemoState()),
      principal: erin,
      stdin,
      stdout,
    });
    send(stdin, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } });
    const reply = await out.next();
    const text = (reply.result as { content: { text: string }[] }).content[0]!.text;
    expect(JSON.parse(text)).toEqual({ principal: erin, transport: 'stdio' });
    let ended = false;
    void host.closed.then(() => (ended = true));
    stdin.end();
    await host.closed;
    expect(ended).toBe(true);
  });

  it('delivers notifications/cancelled to the running handler', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = lines(stdout);
    const state = createDemoState();
    const host = await startStdioHost({ factory: createDemoFactory(state), principal: erin, stdin, stdout });
    send(stdin, {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'slow', arguments: { label: 'u', ms: 10_000 } },
    });
    for (let i = 0; i < 600 && !state.records.has('u'); i += 1) await new Promise((r) => setTimeout(r, 5));
    send(stdin, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 7, reason: 'stop now' },
    });
    for (let i = 0; i < 600 && state.records.get('u')?.outcome === 'running'; i += 1)
      await new Promise((r) => setTimeout(r, 5));
    expect(state.records.get('u')).toMatchObject({ outcome: 'aborted', reason: 'stop now' });
    send(stdin, {
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'next' } },
    });
    // The cancelled request gets no answer; the next one does.
    expect(await out.next()).toMatchObject({ id: 8 });
    await host.close();
    await host.closed;
  });

  it('answers a line nested deeper than maxJsonDepth with -32600 and its id, and serves the next line', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = lines(stdout);
    const host = await startStdioHost({
      factory: createDemoFactory(createDemoState()),
      principal: erin,
      stdin,
      stdout,
      maxJsonDepth: 32,
    });
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    stdin.write(
      `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":${deep}}}}\n`,
    );
    const refusal = await out.next();
    expect(refusal).toMatchObject({ id: 3, error: { code: -32600, data: { maxDepth: 32 } } });
    expect((refusal.error as { message: string }).message).toContain('more than 32 levels deep');
    send(stdin, {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'ok' } },
    });
    expect(await out.next()).toMatchObject({ id: 4, result: {} });
    await host.close();
  });

  it('answers a line that is not JSON with -32700, and a bare JSON value or a batch with -32600, then serves on', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = lines(stdout);
    const host = await startStdioHost({
      factory: createDemoFactory(createDemoState()),
      principal: erin,
      stdin,
      stdout,
    });
    stdin.write('{"jsonrpc":"2.0","id":5,"method":\n');
    const parse = await out.next();
    expect(parse).toMatchObject({ id: null, error: { code: -32700 } });
    expect((parse.error as { message: string }).message).toContain(
      '`{"jsonrpc":"2.0","id":5,"method":` is not JSON',
    );
    stdin.write('42\n\n');
    const bare = await out.next();
    expect(bare).toMatchObject({ id: null, error: { code: -32600 } });
    expect((bare.error as { message: string }).message).toContain('is a JSON number, not a JSON-RPC message');
    stdin.write('[{"jsonrpc":"2.0","id":7,"method":"tools/list"}]\n');
    const batch = await out.next();
    expect(batch).toMatchObject({ id: null, error: { code: -32600 } });
    expect((batch.error as { message: string }).message).toContain('send each message on its own line');
    send(stdin, {
      jsonrpc: '2.0',
      id: 6,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'ok' } },
    });
    expect(await out.next()).toMatchObject({ id: 6, result: {} });
    await host.close();
  });
});
