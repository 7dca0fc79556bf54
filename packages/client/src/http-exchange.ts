/**
 * Observes the HTTP exchange of each attempt: whether a request left, the status, and `Retry-After`,
 * none of which the SDK surfaces. The observation is scoped per attempt with `AsyncLocalStorage`.
 *
 * @packageDocumentation
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FetchLike } from '@modelcontextprotocol/client';

/** What one attempt's HTTP requests showed. */
export interface HttpExchange {
  /** A request was handed to the network and did not fail to connect. */
  mayHaveReachedServer: boolean;
  /** Whether an HTTP POST was observed at all (false for stdio and custom transports). */
  observed?: boolean;
  /** The connection could not be opened, so the tool call itself was never sent. */
  connectFailed?: boolean;
  /** The connection was open and the tool call was handed to it (until then nothing of the call left). */
  sent?: boolean;
  /** The last response status. */
  status?: number;
  /** The last `Retry-After`, in milliseconds. */
  retryAfterMs?: number;
  /** The attempt's abort, once its connection is open: requests sent for the attempt close with it. */
  signal?: AbortSignal;
}

const exchanges = new AsyncLocalStorage<HttpExchange>();

/** Runs `work` with `exchange` as the record that {@link observingFetch} fills for it; returns what `work` returns. */
export async function observeExchange<T>(work: () => Promise<T>, exchange: HttpExchange): Promise<T> {
  return exchanges.run(exchange, work);
}

/** The abort signal of the attempt running in this async context, if any (see `AttemptBoundHttpTransport`). */
export function attemptSignal(): AbortSignal | undefined {
  return exchanges.getStore()?.signal;
}

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = current.cause;
  }
  return undefined;
}

/** Parses a `Retry-After` value (seconds or an HTTP date) into milliseconds from `now`. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Wraps `fetch` so that each attempt records its exchange, and adds `headers` (e.g. a bearer token). */
export function observingFetch(base: FetchLike, headers: Readonly<Record<string, string>>): FetchLike {
  return async (url, init) => {
    const exchange = exchanges.getStore();
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    const isPost = (init?.method ?? 'GET').toUpperCase() === 'POST';
    if (exchange && isPost) exchange.observed = true;
    try {
      const response = await base(url, { ...init, headers: merged });
      if (exchange && isPost) {
        exchange.mayHaveReachedServer = true;
        exchange.status = response.status;
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
        if (retryAfter !== undefined) exchange.retryAfterMs = retryAfter;
      }
      return response;
    } catch (error) {
      const code = causeCode(error);
      if (exchange && isPost && !(code !== undefined && NOT_SENT_CODES.has(code)))
        exchange.mayHaveReachedServer = true;
      throw error;
    }
  };
}
