import { describe, expect, it } from 'vitest';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { paramsError, requestIssuesOf } from './request-param-errors.ts';

const dump = JSON.stringify(
  [{ expected: 'object', code: 'invalid_type', path: ['params', 'capabilities'], message: 'Invalid input' }],
  null,
  2,
);

describe('requestIssuesOf', () => {
  it("reads the SDK's request-validation failures, with or without its prefix", () => {
    expect(requestIssuesOf(new Error(dump))?.[0]?.path).toEqual(['params', 'capabilities']);
    const prefixed = new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Invalid tools/call request: ${dump}`,
    );
    expect(requestIssuesOf(prefixed)).toHaveLength(1);
  });

  it('leaves every other error alone: handler failures, other codes, result validation, non-issue JSON', () => {
    expect(requestIssuesOf(new Error('database is locked'))).toBeUndefined();
    expect(requestIssuesOf(new Error(`Invalid tools/call result: ${dump}`))).toBeUndefined();
    expect(requestIssuesOf(new ProtocolError(ProtocolErrorCode.InternalError, dump))).toBeUndefined();
    expect(requestIssuesOf(new Error('[1, 2, 3]'))).toBeUndefined();
    expect(requestIssuesOf('not an error')).toBeUndefined();
  });
});

describe('paramsError', () => {
  it('names the field, the value received and what is accepted, in one sentence', () => {
    const request = { method: 'initialize', params: { capabilities: null } };
    const issues = requestIssuesOf(new Error(dump)) ?? [];
    const error = paramsError('initialize', request, issues);
    expect(error.code).toBe(ProtocolErrorCode.InvalidParams);
    expect(error.message).toBe(
      'Invalid initialize request: `params.capabilities` is null; expected an object.',
    );
  });
});
