/**
 * Cancellation on the 2025 stateless HTTP leg. There each POST is served by a fresh server instance, so
 * a POSTed `notifications/cancelled` never reaches the handler it names (the SDK answers 202 and drops
 * it); the host intercepts it and asks the {@link CallCanceller} instead.
 *
 * @packageDocumentation
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import type { CallCanceller } from '../contract.ts';

/** One cancellation found in a body: the JSON-RPC id of the request to stop and the client's reason. */
export interface LegacyCancellation {
  readonly requestId: string | number;
  readonly reason: string;
}

/** Default reason when a `notifications/cancelled` names none. */
export const DEFAULT_CANCEL_REASON = 'The client cancelled the request.';

/**
 * The `notifications/cancelled` messages in a parsed body (a single message or a batch), when the body
 * belongs to the 2025 era as the SDK classifies it; an empty list otherwise.
 */
export async function legacyCancellations(
  headers: IncomingHttpHeaders,
  body: unknown,
): Promise<LegacyCancellation[]> {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const found: LegacyCancellation[] = [];
  for (const message of messages) {
    const cancellation = cancellationOf(message);
    if (cancellation !== undefined) found.push(cancellation);
  }
  if (found.length === 0) return found;
  return (await isLegacyRequest(probeRequest(headers), body)) ? found : [];
}

/** Whether `body` is exactly one `notifications/cancelled` (the host then answers 202 itself). */
export function isSingleCancellation(body: unknown): boolean {
  return !Array.isArray(body) && cancellationOf(body) !== undefined;
}

/** Fires every cancellation for `principalId`; returns how many running calls were found and stopped. */
export function applyCancellations(
  canceller: CallCanceller,
  principalId: string,
  cancellations: readonly LegacyCancellation[],
): number {
  let stopped = 0;
  for (const { requestId, reason } of cancellations) {
    if (canceller.cancel(principalId, requestId, reason)) stopped += 1;
  }
  return stopped;
}

function cancellationOf(message: unknown): LegacyCancellation | undefined {
  if (message === null || typeof message !== 'object') return undefined;
  const m = message as { method?: unknown; id?: unknown; params?: unknown };
  if (m.method !== 'notifications/cancelled' || m.id !== undefined) return undefined;
  const params = (m.params ?? {}) as { requestId?: unknown; reason?: unknown };
  const { requestId, reason } = params;
  if (typeof requestId !== 'string' && typeof requestId !== 'number') return undefined;
  return { requestId, reason: typeof reason === 'string' && reason !== '' ? reason : DEFAULT_CANCEL_REASON };
}

function probeRequest(headers: IncomingHttpHeaders): Request {
  const probe = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    probe.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request('http://localhost/', { method: 'POST', headers: probe });
}
