import { describe, expect, it } from 'vitest';
import type { CallCanceller } from '../contract.ts';
import {
  applyCancellations,
  DEFAULT_CANCEL_REASON,
  isSingleCancellation,
  legacyCancellations,
} from './legacy-cancel.ts';

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const cancelled = (requestId: unknown, reason?: string) => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: { requestId, ...(reason !== undefined && { reason }) },
});

describe('legacy cancellation interception', () => {
  it('finds 2025-era cancellations in a single message or a batch', async () => {
    expect(await legacyCancellations(headers, cancelled(4, 'stop'))).toEqual([
      { requestId: 4, reason: 'stop' },
    ]);
    const batch = [cancelled('a'), { jsonrpc: '2.0', id: 1, method: 'tools/list' }];
    expect(await legacyCancellations(headers, batch)).toEqual([
      { requestId: 'a', reason: DEFAULT_CANCEL_REASON },
    ]);
    expect(isSingleCancellation(cancelled(4))).toBe(true);
    expect(isSingleCancellation(batch)).toBe(false);
  });

  it('ignores modern-era cancellations, other messages and malformed request ids', async () => {
    const modern = {
      ...cancelled(4),
      params: {
        requestId: 4,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    };
    expect(await legacyCancellations({ ...headers, 'mcp-protocol-version': '2026-07-28' }, modern)).toEqual(
      [],
    );
    expect(await legacyCancellations(headers, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).toEqual([]);
    expect(await legacyCancellations(headers, cancelled({ nested: true }))).toEqual([]);
  });

  it('asks the canceller per cancellation, scoped to the member, and counts the calls stopped', () => {
    const seen: unknown[] = [];
    const canceller: CallCanceller = {
      cancel: (principalId, requestId, reason) => {
        seen.push([principalId, requestId, reason]);
        return requestId === 1;
      },
    };
    const stopped = applyCancellations(canceller, 'm_dan', [
      { requestId: 1, reason: 'a' },
      { requestId: 2, reason: 'b' },
    ]);
    expect(stopped).toBe(1);
    expect(seen).toEqual([
      ['m_dan', 1, 'a'],
      ['m_dan', 2, 'b'],
    ]);
  });
});
