import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkContentType, checkDeclaredSize, parseJsonRpcBody, readBody } from './request-body.ts';

describe('request body checks', () => {
  it('refuses a declared Content-Length over the limit with 413', () => {
    expect(checkDeclaredSize({ 'content-length': '100' }, 100)).toBeUndefined();
    expect(checkDeclaredSize({ 'content-length': '101' }, 100)).toMatchObject({ status: 413, code: -31413 });
  });

  it('stops reading a streamed body once it passes the limit', async () => {
    const chunks = Array.from({ length: 10 }, () => Buffer.alloc(40, 'a'));
    const over = await readBody(Readable.from(chunks) as unknown as IncomingMessage, 100);
    expect(over).toMatchObject({ ok: false, refusal: { status: 413 } });
    const within = await readBody(
      Readable.from([Buffer.from('{"a":'), Buffer.from('1}')]) as unknown as IncomingMessage,
      100,
    );
    expect(within).toEqual({ ok: true, text: '{"a":1}' });
  });

  it('accepts application/json with parameters and refuses anything else with 415', () => {
    expect(checkContentType({ 'content-type': 'application/json; charset=utf-8' })).toBeUndefined();
    expect(checkContentType({ 'content-type': 'text/plain' })).toMatchObject({ status: 415, code: -31415 });
    expect(checkContentType({})?.message).toContain('No Content-Type header');
  });

  it('refuses a body nested too deeply with -32600 and the request id, so the client can match the answer', () => {
    const deep = '['.repeat(5_000) + ']'.repeat(5_000);
    const request = `{"jsonrpc":"2.0","id":"deep-1","method":"tools/call","params":{"name":"echo","arguments":{"x":${deep}}}}`;
    expect(parseJsonRpcBody(request, 64)).toMatchObject({
      ok: false,
      id: 'deep-1',
      refusal: { status: 400, code: -32600, reason: 'json-depth', data: { maxDepth: 64 } },
    });
    expect(parseJsonRpcBody(deep, 64)).toMatchObject({
      ok: false,
      id: null,
      refusal: { reason: 'json-depth' },
    });
  });

  it('refuses malformed JSON with -32700 and non-JSON-RPC with -32600, echoing the id when present', () => {
    expect(parseJsonRpcBody('{"jsonrpc":')).toMatchObject({
      ok: false,
      id: null,
      refusal: { status: 400, code: -32700 },
    });
    expect(parseJsonRpcBody('')).toMatchObject({ ok: false, refusal: { code: -32700 } });
    for (const text of [
      '[]',
      '42',
      '{"jsonrpc":"2.0"}',
      '[{"jsonrpc":"2.0","method":"a"},7]',
      '{"jsonrpc":"2.0","method":3}',
    ]) {
      expect(parseJsonRpcBody(text)).toMatchObject({ ok: false, refusal: { code: -32600 } });
    }
    expect(parseJsonRpcBody('{"jsonrpc":"1.0","id":"r1","method":"x"}')).toMatchObject({
      ok: false,
      id: 'r1',
    });
  });

  it('accepts requests, notifications, responses and batches', () => {
    const ok = [
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":"a","result":{}}',
      '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"}]',
    ];
    for (const text of ok) expect(parseJsonRpcBody(text).ok).toBe(true);
    expect(parseJsonRpcBody(ok[0]!)).toMatchObject({ id: 1 });
  });

  it('refuses a batch of more than the accepted number of messages, saying how many are accepted', () => {
    const batch = (n: number): string =>
      JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'tools/list' })));
    expect(parseJsonRpcBody(batch(16)).ok).toBe(true);
    const refused = parseJsonRpcBody(batch(100));
    expect(refused).toMatchObject({
      ok: false,
      refusal: { status: 400, code: -32600, data: { maxBatch: 16 } },
    });
    expect(refused.ok ? '' : refused.refusal.message).toContain(
      'a batch of 100 JSON-RPC messages; at most 16',
    );
    expect(parseJsonRpcBody(batch(5), 64, 4).ok).toBe(false);
  });
});
