/**
 * Streamable HTTP with every request of an attempt tied to that attempt's abort. The SDK ties a request's
 * HTTP stream to its cancellation only on 2026-07-28 connections; on 2025-era ones it sends the POST under the
 * transport's long-lived signal and announces a cancellation with a separate `notifications/cancelled` POST,
 * which a stateless server handles in a fresh instance that knows nothing of the running call. Here each JSON-RPC
 * request sent while an attempt runs gets the attempt's signal as its `requestSignal`, so a timeout, a hard
 * maximum or the caller's abort closes the request's own stream (the way every stateless server hears it)
 * and the SDK still sends `notifications/cancelled` where the era wants one.
 *
 * @packageDocumentation
 */
import { StreamableHTTPClientTransport, isJSONRPCRequest } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { ATTEMPT_HEADER } from './http-exchange.ts';
import type { ExchangeRegistry } from './http-exchange.ts';

type SendOptions = Parameters<StreamableHTTPClientTransport['send']>[1];

/** {@link StreamableHTTPClientTransport} whose requests close their stream when their attempt is aborted. */
export class AttemptBoundHttpTransport extends StreamableHTTPClientTransport {
  readonly #exchanges: ExchangeRegistry;

  /** `exchanges` finds a request's attempt by the tag in its {@link ATTEMPT_HEADER} header. */
  constructor(
    url: URL,
    options: ConstructorParameters<typeof StreamableHTTPClientTransport>[1],
    exchanges: ExchangeRegistry,
  ) {
    super(url, options);
    this.#exchanges = exchanges;
  }

  override send(message: JSONRPCMessage, options?: SendOptions): Promise<void> {
    if (options?.requestSignal !== undefined || !isJSONRPCRequest(message))
      return super.send(message, options);
    const signal = this.#exchanges.get(options?.headers?.[ATTEMPT_HEADER])?.signal;
    // A request sent after its attempt was aborted is not the attempt's own (nothing is, any more). A light signal
    // (2026-07-28 era, where the SDK gives every request a `requestSignal` of its own) cannot reach `fetch`.
    if (signal === undefined || signal.aborted || !(signal instanceof AbortSignal))
      return super.send(message, options);
    return super.send(message, { ...options, requestSignal: signal });
  }
}
