/**
 * Observes the HTTP exchange of each attempt: whether a request left, the status, and `Retry-After`,
 * none of which the SDK surfaces. An attempt's requests carry a tag header (`x-recourse-attempt`) that the
 * fetch wrapper reads and removes before the request leaves, so the observation is scoped per attempt without
 * `AsyncLocalStorage` (whose promise hooks would slow every promise in the process). Untagged POSTs (the
 * handshake, `tools/list`) are recorded in the registry's `untagged` exchange, which an attempt reads when
 * connecting failed.
 *
 * @packageDocumentation
 */
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
  signal?: AbortSignal | undefined;
}

/** The header that tags an attempt's requests inside this process; {@link observingFetch} removes it. */
export const ATTEMPT_HEADER = 'x-recourse-attempt';

/** The exchanges of the attempts running on one HTTP connection, by tag. */
export class ExchangeRegistry {
  readonly #open = new Map<string, HttpExchange>();
  #next = 0;
  /** What the untagged POSTs (the handshake, `tools/list`) showed; reset when a connection opens. */
  untagged: HttpExchange = { mayHaveReachedServer: false };

  /** Registers `exchange` for one attempt; returns the tag its requests carry in {@link ATTEMPT_HEADER}. */
  open(exchange: HttpExchange): string {
    this.#next += 1;
    const tag = String(this.#next);
    this.#open.set(tag, exchange);
    return tag;
  }

  /** Forgets the exchange of a finished attempt. */
  close(tag: string): void {
    this.#open.delete(tag);
  }

  /** The exchange of a running attempt. */
  get(tag: string | null | undefined): HttpExchange | undefined {
    return tag === null || tag === undefined ? undefined : this.#open.get(tag);
  }
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

/**
 * Wraps `fetch` so that each POST is recorded in its attempt's exchange (found by the {@link ATTEMPT_HEADER} tag,
 * which is removed) or in `registry.untagged`, and adds `headers` (e.g. a bearer token). The SDK builds a fresh
 * `Headers` for every request it sends, so that object is edited in place rather than copied.
 */
export function observingFetch(
  base: FetchLike,
  headers: Readonly<Record<string, string>>,
  registry: ExchangeRegistry,
): FetchLike {
  const added = Object.entries(headers);
  return async (url, init) => {
    let sending = init;
    let requestHeaders = init?.headers;
    if (!(requestHeaders instanceof Headers)) {
      requestHeaders = new Headers(requestHeaders);
      sending = { ...init, headers: requestHeaders };
    }
    const tag = requestHeaders.get(ATTEMPT_HEADER);
    if (tag !== null) requestHeaders.delete(ATTEMPT_HEADER);
    for (const [name, value] of added) requestHeaders.set(name, value);
    const isPost = init?.method !== undefined && init.method.toUpperCase() === 'POST';
    const exchange = isPost ? (tag === null ? registry.untagged : registry.get(tag)) : undefined;
    if (exchange === undefined) return base(url, sending);
    exchange.observed = true;
    try {
      const response = await base(url, sending);
      exchange.mayHaveReachedServer = true;
      exchange.status = response.status;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      if (retryAfter !== undefined) exchange.retryAfterMs = retryAfter;
      return response;
    } catch (error) {
      const code = causeCode(error);
      if (!(code !== undefined && NOT_SENT_CODES.has(code))) exchange.mayHaveReachedServer = true;
      throw error;
    }
  };
}
