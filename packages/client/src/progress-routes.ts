/**
 * Routes the server's `notifications/progress` to the running attempts, by the progress token each attempt puts
 * on its own request (`_meta.progressToken`).
 *
 * The SDK would do this for a request given `onprogress`, but then copies the request's params and `_meta` into
 * a new request and registers the handler under the message id, on every call; a token of the client's own costs
 * one small object. The route is an object the attempt has anyway (its watch), not a closure made per attempt.
 * The token goes out as a string written from a number counted per connection. The SDK server checks
 * `progressToken` against a union that tries a string first; a number token fails that branch and records a
 * validation issue on every request: 4.5 KB more allocated per request than no token, against 1.7 KB for a
 * string (`npm run bench:server-cost`). The routes stay keyed by the number, so opening and closing one hashes no
 * string.
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
  /** By the number a token is written from. */
  readonly #routes = new Map<number, ProgressRoute>();
  #issued = 0;

  /** Installs the one `notifications/progress` handler on `client`. */
  install(client: Client): void {
    client.setNotificationHandler('notifications/progress', (notification) => {
      const { progressToken } = notification.params;
      if (typeof progressToken !== 'string') return;
      const issued = Number(progressToken);
      // Only a token exactly as this client wrote it: `Number` also reads " 7" or "7.0" as 7.
      if (String(issued) === progressToken) this.#routes.get(issued)?.progress(notification.params);
    });
  }

  /** Opens a route; returns the token to put on the request. */
  open(route: ProgressRoute): string {
    this.#issued += 1;
    this.#routes.set(this.#issued, route);
    return String(this.#issued);
  }

  /** Closes the route of `token`: later progress for it is ignored. */
  close(token: string): void {
    this.#routes.delete(Number(token));
  }
}
