import { describe, expect, it } from 'vitest';
import {
  LEGACY_ERROR_CODES,
  PROTOCOL_ERROR_CODES,
  RECOURSE_ERROR_CODES,
  describeErrorCode,
  isReservedCode,
  recourseCodeForStatus,
} from './error-codes.ts';

const all = [
  ...Object.entries(PROTOCOL_ERROR_CODES),
  ...Object.entries(LEGACY_ERROR_CODES),
  ...Object.entries(RECOURSE_ERROR_CODES),
];

describe('error-code registry', () => {
  it('gives every code exactly one name', () => {
    const codes = all.map(([, code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
    const names = all.map(([name]) => name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('keeps our own codes outside the reserved range -32768…-32000', () => {
    for (const code of Object.values(RECOURSE_ERROR_CODES)) {
      expect(isReservedCode(code)).toBe(false);
      expect(describeErrorCode(code).origin).toBe('recourse');
    }
  });

  it('has the spec values for protocol and legacy codes', () => {
    expect(PROTOCOL_ERROR_CODES).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
      HeaderMismatch: -32020,
      MissingRequiredClientCapability: -32021,
      UnsupportedProtocolVersion: -32022,
    });
    expect(LEGACY_ERROR_CODES).toEqual({ ResourceNotFound: -32002, UrlElicitationRequired: -32042 });
    for (const code of [...Object.values(PROTOCOL_ERROR_CODES), ...Object.values(LEGACY_ERROR_CODES)]) {
      expect(isReservedCode(code)).toBe(true);
    }
  });

  it('describes each registered code by its own name and origin', () => {
    for (const [name, code] of all) expect(describeErrorCode(code).name).toBe(name);
    expect(describeErrorCode(-32601)).toMatchObject({ origin: 'jsonrpc', httpStatus: 404 });
    expect(describeErrorCode(-32022)).toMatchObject({ origin: 'mcp', httpStatus: 400 });
    expect(describeErrorCode(-32002)).toMatchObject({ origin: 'legacy' });
    expect(describeErrorCode(-31429)).toMatchObject({ origin: 'recourse', httpStatus: 429 });
  });

  it('classifies unregistered codes by range', () => {
    expect(describeErrorCode(-32001).origin).toBe('legacy');
    expect(describeErrorCode(-32050).origin).toBe('reserved');
    expect(describeErrorCode(-32768).origin).toBe('reserved');
    expect(describeErrorCode(-32769).origin).toBe('implementation');
    expect(describeErrorCode(-31999).origin).toBe('implementation');
    expect(describeErrorCode(42).origin).toBe('implementation');
  });

  it('maps HTTP refusal statuses to our codes', () => {
    expect(recourseCodeForStatus(401)).toBe(RECOURSE_ERROR_CODES.Unauthorized);
    expect(recourseCodeForStatus(429)).toBe(RECOURSE_ERROR_CODES.TooManyRequests);
    expect(recourseCodeForStatus(413)).toBe(RECOURSE_ERROR_CODES.PayloadTooLarge);
    expect(recourseCodeForStatus(503)).toBe(RECOURSE_ERROR_CODES.Unavailable);
    expect(recourseCodeForStatus(405)).toBe(RECOURSE_ERROR_CODES.MethodNotAllowed);
    expect(recourseCodeForStatus(500)).toBeUndefined();
  });

  it('treats bounds of the reserved range as reserved', () => {
    expect(isReservedCode(-32000)).toBe(true);
    expect(isReservedCode(-32768)).toBe(true);
    expect(isReservedCode(-31999)).toBe(false);
    expect(isReservedCode(-32000.5)).toBe(false);
  });
});
