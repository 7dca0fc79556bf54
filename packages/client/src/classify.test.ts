import { describe, expect, it } from 'vitest';
import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { encodeFailure } from '@recourse/core';
import { classifyResult, classifyThrown, parseRpcErrorBody } from './classify.ts';
import type { AttemptContext } from './classify.ts';

const ctx: AttemptContext = {
  server: 's',
  tool: 'tasks_get',
  abortCause: undefined,
  exchange: undefined,
  deadlineMs: 1000,
  maxTimeoutMs: 4000,
};

describe('classifyThrown', () => {
  it('reads a JSON-RPC error hidden in an SdkHttpError body as a protocol error with its HTTP status', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32601, message: 'Method not found' },
    });
    const error = classifyThrown(
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Error POSTing', {
        status: 404,
        statusText: 'Not Found',
        text: body,
      }),
      ctx,
    );
    expect(error).toMatchObject({
      kind: 'protocol',
      rpcCode: -32601,
      httpStatus: 404,
      message: 'Method not found',
    });
  });

  it('writes a transport failure as sentences, without doubling the full stop of the cause', () => {
    const error = classifyThrown(
      new Error('The Recourse client was closed; create a new one to call again.'),
      {
        ...ctx,
        exchange: { mayHaveReachedServer: false, connectFailed: true },
      },
    );
    expect(error.message).toBe(
      'The connection failed while calling tasks_get: The Recourse client was closed; create a new one to call again. The request did not reach the tool; nothing was changed. Retrying later may help.',
    );
  });

  it('keeps a remote ProtocolError remote, with code and data', () => {
    const error = classifyThrown(new ProtocolError(-32602, 'Unknown tool: x', { tool: 'x' }), ctx);
    expect(error).toMatchObject({ kind: 'protocol', rpcCode: -32602, data: { tool: 'x' }, notFound: false });
    expect(classifyThrown(new ProtocolError(-32002, 'Resource not found'), ctx)).toMatchObject({
      notFound: true,
    });
  });

  it('takes the wait from data.retryAfterMs or the Retry-After header', () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -31429, message: 'Too many', data: { retryAfterMs: 2500 } },
    });
    const fromData = classifyThrown(
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'x', { status: 429, text: body }),
      ctx,
    );
    expect(fromData).toMatchObject({ retryAfterMs: 2500, retryable: true });
    const fromHeader = classifyThrown(
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'x', { status: 503, text: 'busy' }),
      {
        ...ctx,
        exchange: { mayHaveReachedServer: true, observed: true, status: 503, retryAfterMs: 4000 },
      },
    );
    expect(fromHeader).toMatchObject({
      kind: 'local',
      reason: 'transport',
      httpStatus: 503,
      retryAfterMs: 4000,
      mayHaveReachedServer: false,
    });
  });

  it('tells a deadline from a user abort even though the SDK reports both as REQUEST_TIMEOUT', () => {
    const sdk = new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out');
    expect(classifyThrown(sdk, { ...ctx, abortCause: 'deadline' })).toMatchObject({
      kind: 'local',
      reason: 'timeout',
      code: 'CALL_TIMEOUT',
    });
    expect(classifyThrown(sdk, { ...ctx, abortCause: 'user' })).toMatchObject({
      kind: 'local',
      reason: 'cancelled',
      code: 'CALL_CANCELLED',
    });
    const hard = classifyThrown(sdk, { ...ctx, abortCause: 'hard_maximum' });
    expect(hard).toMatchObject({ kind: 'local', reason: 'timeout', code: 'CALL_TIMEOUT' });
    expect(hard.message).toMatch(/hard maximum of 4000 ms.*larger maxTimeoutMs/);
  });

  it('says that a call timed out or cancelled before the connection opened was not sent and changed nothing', () => {
    const sdk = new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out');
    const connecting = { mayHaveReachedServer: false };
    const timedOut = classifyThrown(sdk, { ...ctx, abortCause: 'deadline', exchange: connecting });
    expect(timedOut).toMatchObject({ reason: 'timeout', mayHaveReachedServer: false });
    expect(timedOut.message).toMatch(
      /before this client had connected to .*not sent and nothing was changed/,
    );
    expect(timedOut.message).not.toMatch(/part of its work/);
    const cancelled = classifyThrown(sdk, { ...ctx, abortCause: 'user', exchange: connecting });
    expect(cancelled).toMatchObject({ reason: 'cancelled', mayHaveReachedServer: false });
    expect(cancelled.message).toMatch(/still connecting .*not sent, so nothing was changed/);
    const sent = classifyThrown(sdk, {
      ...ctx,
      abortCause: 'deadline',
      exchange: { ...connecting, sent: true },
    });
    expect(sent).toMatchObject({ reason: 'timeout', mayHaveReachedServer: true });
    expect(sent.message).toMatch(/may have done part of its work/);
  });

  it('says whether a transport failure may have reached the server', () => {
    const dropped = classifyThrown(new TypeError('fetch failed'), {
      ...ctx,
      exchange: { mayHaveReachedServer: true, observed: true },
    });
    expect(dropped).toMatchObject({ reason: 'transport', mayHaveReachedServer: true });
    const refused = classifyThrown(new TypeError('fetch failed'), {
      ...ctx,
      exchange: { mayHaveReachedServer: false, observed: true },
    });
    expect(refused).toMatchObject({ reason: 'transport', mayHaveReachedServer: false });
    const noConnection = classifyThrown(new TypeError('fetch failed'), {
      ...ctx,
      exchange: { mayHaveReachedServer: false, connectFailed: true },
    });
    expect(noConnection).toMatchObject({ mayHaveReachedServer: false });
    const pipe = classifyThrown(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'), {
      ...ctx,
      exchange: { mayHaveReachedServer: false },
    });
    expect(pipe).toMatchObject({ mayHaveReachedServer: true });
  });
});

describe('classifyResult', () => {
  it('parses Recourse failure data, and guesses for foreign isError results', () => {
    const ours = encodeFailure({
      category: 'not_found',
      code: 'TASK_NOT_FOUND',
      message: 'No task T-9.',
      retryable: false,
      changed: false,
    });
    expect(classifyResult(ours, 's', 'tasks_get')).toMatchObject({
      kind: 'tool',
      category: 'not_found',
      failure: { code: 'TASK_NOT_FOUND' },
    });
    const foreign = classifyResult(
      { isError: true, content: [{ type: 'text', text: 'Too many requests, slow down.' }] },
      's',
      't',
    );
    expect(foreign).toMatchObject({ category: 'rate_limit', failure: undefined, retryable: true });
    expect(classifyResult({ content: [{ type: 'text', text: 'fine' }] }, 's', 't')).toBeUndefined();
  });

  it('keeps every text part of a failure in its message, the same text its category was guessed from', () => {
    const split = classifyResult(
      {
        isError: true,
        content: [
          { type: 'text', text: 'The export did not finish.' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
          { type: 'text', text: 'The storage service is temporarily unavailable.' },
        ],
      },
      's',
      'board_export',
    );
    expect(split?.message).toBe(
      'The export did not finish.\nThe storage service is temporarily unavailable.',
    );
    expect(split?.kind === 'tool' && split.category).toBe('transient');
    const silent = classifyResult({ isError: true, content: [] }, 's', 'board_export');
    expect(silent?.message).toBe('Tool board_export failed without a text.');
  });
});

describe('parseRpcErrorBody', () => {
  it('accepts only JSON-RPC error bodies', () => {
    expect(
      parseRpcErrorBody(
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"no","data":{"supported":["2026-07-28"]}}}',
      ),
    ).toEqual({
      code: -32022,
      message: 'no',
      data: { supported: ['2026-07-28'] },
    });
    expect(parseRpcErrorBody('{"error":"invalid_token"}')).toBeUndefined();
    expect(parseRpcErrorBody('<html>')).toBeUndefined();
    expect(parseRpcErrorBody(undefined)).toBeUndefined();
  });
});

describe('unknown tools from other servers', () => {
  const ctx = {
    server: 's',
    tool: 'nope',
    abortCause: undefined,
    exchange: undefined,
    deadlineMs: 1,
    maxTimeoutMs: 1,
  };
  it('reads a v1 SDK isError "Tool X not found" as the unknown-tool protocol failure', () => {
    const error = classifyResult(
      { isError: true, content: [{ type: 'text', text: 'MCP error -32602: Tool nope not found' }] },
      's',
      'nope',
    );
    expect(error).toMatchObject({
      kind: 'protocol',
      rpcCode: -32602,
      unknownTool: true,
      data: { tool: 'nope' },
    });
    expect(error?.message).toMatch(/^Unknown tool: nope on s .*call tools\/list/);
  });
  it('reads a -32601 "Unknown tool: X" as the same failure, and leaves other -32601 and -32602 alone', () => {
    const thrown = Object.assign(new Error('MCP error -32601: Unknown tool: nope'), { code: -32601 });
    expect(classifyThrown(thrown, ctx)).toMatchObject({ rpcCode: -32602, unknownTool: true });
    const method = Object.assign(new Error('MCP error -32601: Method not found'), { code: -32601 });
    expect(classifyThrown(method, ctx)).toMatchObject({ rpcCode: -32601, unknownTool: false });
    const params = Object.assign(new Error("MCP error -32602: Tool 'nope' parameter validation failed: x"), {
      code: -32602,
    });
    expect(classifyThrown(params, ctx)).toMatchObject({ rpcCode: -32602, unknownTool: false });
  });
  it('does not take another tool named in the text for this one', () => {
    const other = classifyResult(
      { isError: true, content: [{ type: 'text', text: 'MCP error -32602: Tool helper not found' }] },
      's',
      'nope',
    );
    expect(other?.kind).toBe('tool');
  });
});
