/**
 * An `AbortController` whose signal is a plain object instead of Node's `EventTarget`, for the attempts whose
 * signal never reaches `fetch` (stdio, custom transports, and HTTP connections of the 2026-07-28 era, where the
 * SDK gives each request an abort of its own). The SDK only reads a request's signal (`aborted`, `reason`) and
 * adds and removes one abort listener per request; on Node 20 that listener costs about 2 µs per call on the
 * native signal (its `EventTarget` bookkeeping), a few percent of a whole call on stdio, and a small fraction of
 * that here. `fetch` and `AbortSignal.any` accept only native signals, so attempts whose signal is handed to
 * `fetch` (2025-era HTTP) keep a native controller.
 *
 * It keeps only `abort` listeners (the only event a signal fires) and behaves as a native abort signal does where
 * a listener can tell: listeners run once, in the order they were added (`onabort` where it was first set), with
 * an `abort` event; a listener added twice runs once; one added after the abort never runs; a listener that
 * throws does not stop the others, and its error is reported as an uncaught exception, as Node reports one from a
 * native listener.
 *
 * @packageDocumentation
 */

type Listener = Parameters<AbortSignal['addEventListener']>[1];
type ListenerOptions = Parameters<AbortSignal['addEventListener']>[2];

/** The signal of a {@link LightAbortController}. */
class LightAbortSignal implements AbortSignal {
  aborted = false;
  reason: unknown = undefined;
  #onabort: ((this: AbortSignal, event: Event) => unknown) | null = null;
  /** The listener standing for `onabort` in the order of listeners, from when it was first set. */
  #onabortListener: Listener | undefined;
  /**
   * The listeners in the order they were added, with whether each runs only once. Made with the first listener,
   * as a one-element array: the SDK adds one per request, and an empty array would grow room for sixteen.
   */
  #listeners: { listener: Listener; once: boolean }[] | undefined;

  /** As a native signal's: runs where it was first set among the listeners, and keeps that place when reset. */
  get onabort(): ((this: AbortSignal, event: Event) => unknown) | null {
    return this.#onabort;
  }

  set onabort(handler: ((this: AbortSignal, event: Event) => unknown) | null) {
    this.#onabort = typeof handler === 'function' ? handler : null;
    if (this.#onabort === null) return;
    this.#onabortListener ??= (event: Event): unknown => this.#onabort?.call(this, event);
    this.addEventListener('abort', this.#onabortListener);
  }

  addEventListener(type: string, listener: Listener | null, options?: ListenerOptions): void {
    if (type !== 'abort' || listener === null || this.aborted) return;
    if (this.#indexOf(listener) !== -1) return;
    const removal = typeof options === 'object' ? options.signal : undefined;
    if (removal?.aborted === true) return;
    const entry = { listener, once: typeof options === 'object' && options.once === true };
    if (this.#listeners === undefined) this.#listeners = [entry];
    else this.#listeners.push(entry);
    removal?.addEventListener('abort', () => this.removeEventListener(type, listener), { once: true });
  }

  removeEventListener(type: string, listener: Listener | null): void {
    if (type !== 'abort') return;
    const at = this.#indexOf(listener);
    if (at !== -1) this.#listeners?.splice(at, 1);
  }

  /** Where `listener` is among the listeners (-1: not there); a loop, so a call allocates nothing. */
  #indexOf(listener: Listener | null): number {
    const listeners = this.#listeners;
    if (listeners === undefined) return -1;
    for (let at = 0; at < listeners.length; at++) if (listeners[at]!.listener === listener) return at;
    return -1;
  }

  dispatchEvent(event: Event): boolean {
    if (event.type !== 'abort') return !event.defaultPrevented;
    // The listeners present when the event started, each only while it is still registered.
    for (const entry of [...(this.#listeners ?? [])]) {
      if (this.#listeners?.includes(entry) !== true) continue;
      if (entry.once) this.removeEventListener('abort', entry.listener);
      const { listener } = entry;
      run(() => (typeof listener === 'function' ? listener.call(this, event) : listener.handleEvent(event)));
    }
    return !event.defaultPrevented;
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** Aborts with `reason` (an `AbortError` `DOMException` when none is given), once. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason =
      reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    this.dispatchEvent(new Event('abort'));
    this.#listeners = undefined;
  }
}

/** Runs one listener; an error it throws is rethrown on its own tick, as Node does for a native listener. */
function run(listener: () => unknown): void {
  try {
    listener();
  } catch (error) {
    process.nextTick(() => {
      throw error;
    });
  }
}

/** `AbortController`'s shape with a {@link LightAbortSignal}. */
export class LightAbortController implements AbortController {
  readonly #signal = new LightAbortSignal();

  /** The signal to hand to the SDK's requests (not to `fetch`, which accepts only native signals). */
  get signal(): AbortSignal {
    return this.#signal;
  }

  /** Aborts the signal with `reason`; a second call does nothing. */
  abort(reason?: unknown): void {
    this.#signal.abort(reason);
  }
}
