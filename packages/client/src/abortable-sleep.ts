/**
 * The one abortable wait of the client: backoff before a retry, the pause between task polls, and the
 * fault server's slow and hanging tools.
 *
 * @packageDocumentation
 */

/**
 * Waits `ms` milliseconds, or less when `signal` aborts first (at once when it already has). Resolves `true`
 * when the whole wait passed and `false` when the signal cut it short; never rejects. The timer and the
 * listener are removed either way, so a long wait leaves nothing behind once aborted.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const timer = setTimeout(() => finish(true), ms);
    function finish(elapsed: boolean): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(elapsed);
    }
    function onAbort(): void {
      finish(false);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
