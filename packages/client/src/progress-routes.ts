/**
 * Routes the server's `notifications/progress` to the running attempts, by the progress token each attempt puts
 * on its own request (`_meta.progressToken`).
 *
 * The SDK would do this for a request given `onprogress`, but then copies the request's params and `_meta` into
 * a new request and registers the handler under the message id, on every call; a token of the client's own costs
 * one small object. The route is an object the attempt has anyway (its watch), not a closure made per attempt.
 * The SDK's own progress routing serves only requests given `onprogress`, which this client never passes, so
 * the one handler installed here replaces it on every SDK client the client creates. The token also rides along
 * on the SDK's follow-up requests of a 2026-07-28 `input_required` flow (they copy the original params), so
 * progress during any round reaches the attempt; the SDK's own per-round progress reports are made only for
 * `onprogress`, so they never arrive here.
 *
 * @packageDocumentation
 */
import type { Client, ProgressNotificationParams } from '@modelcontextprotocol/client';

/** A progress notification as the caller sees it. */
export interface CallProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** What receives one attempt's progress notifications. */
export interface ProgressRoute {
  progress(params: ProgressNotificationParams): void;
}

/** The progress routes of one connection's running attempts. */
export class ProgressRoutes {
  /** By token: a number, so opening and closing a route hashes no string. */
  readonly #routes = new Map<number, ProgressRoute>();
  #issued = 0;

  /** Installs the one `notifications/progress` handler on `client`. */
  install(client: Client): void {
    client.setNotificationHandler('notifications/progress', (notification) => {
      const { progressToken } = notification.params;
      if (typeof progressToken === 'number') this.#routes.get(progressToken)?.progress(notification.params);
    });
  }

  /** Opens a route; returns the token to put on the request. */
  open(route: ProgressRoute): number {
    this.#issued += 1;
    const token = this.#issued;
    this.#routes.set(token, route);
    return token;
  }

  /** Closes the route of `token`: later progress for it is ignored. */
  close(token: number): void {
    this.#routes.delete(token);
  }
}
