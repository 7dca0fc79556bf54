/**
 * The per-server bulkhead: at most `maxConcurrent` calls run at once and at most `maxQueue` wait for a slot, in
 * the order they came; a call beyond both is refused at once. A call takes a free slot without any asynchronous
 * step (the common case costs a counter), and a waiting call whose caller aborts leaves the queue at once.
 *
 * @packageDocumentation
 */

/** Why a call got no slot. */
export type BulkheadRefusal = 'full' | 'cancelled';

/** A call that got no slot: the queue was full, or its caller aborted before a slot came free. */
export class BulkheadRefused extends Error {
  readonly refusal: BulkheadRefusal;

  constructor(refusal: BulkheadRefusal) {
    super(refusal === 'full' ? 'The bulkhead is full.' : 'Cancelled while waiting for the bulkhead.');
    this.name = 'BulkheadRefused';
    this.refusal = refusal;
  }
}

interface Waiter {
  readonly admit: () => void;
  readonly signal: AbortSignal | undefined;
  readonly onAbort: () => void;
}

/** See the file comment. */
export class Bulkhead {
  readonly #maxConcurrent: number;
  readonly #maxQueue: number;
  readonly #waiting: Waiter[] = [];
  #running = 0;

  constructor(maxConcurrent: number, maxQueue: number) {
    this.#maxConcurrent = Math.max(1, maxConcurrent);
    this.#maxQueue = Math.max(0, maxQueue);
  }

  /** Takes a free slot (true), or none when all are taken (false: {@link wait} for one). */
  tryEnter(): boolean {
    if (this.#running >= this.#maxConcurrent) return false;
    this.#running += 1;
    return true;
  }

  /**
   * Waits in the queue for a slot. Rejects with {@link BulkheadRefused}: `full` at once when the queue is full,
   * `cancelled` as soon as `signal` aborts while waiting (or at once when it already has).
   */
  wait(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new BulkheadRefused('cancelled'));
    if (this.#waiting.length >= this.#maxQueue) return Promise.reject(new BulkheadRefused('full'));
    return new Promise<void>((admit, refuse) => {
      const waiter: Waiter = {
        admit,
        signal,
        onAbort: () => {
          const at = this.#waiting.indexOf(waiter);
          if (at === -1) return;
          this.#waiting.splice(at, 1);
          refuse(new BulkheadRefused('cancelled'));
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  /** Gives a slot back: the longest-waiting call takes it, or it becomes free. */
  leave(): void {
    const next = this.#waiting.shift();
    if (next === undefined) {
      this.#running -= 1;
      return;
    }
    next.signal?.removeEventListener('abort', next.onAbort);
    next.admit();
  }
}
