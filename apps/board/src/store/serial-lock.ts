/**
 * A promise-chain lock: runs async sections one at a time, in call order.
 *
 * @packageDocumentation
 */

/** Runs `section`s strictly one after another; a failing section does not block the next. */
export interface SerialLock {
  run<T>(section: () => Promise<T>): Promise<T>;
  /**
   * Runs a synchronous `section` (one better-sqlite3 statement or a few) in its turn; a throw becomes a
   * rejection and does not block the next section.
   */
  runSync<T>(section: () => T): Promise<T>;
}

/** Creates a {@link SerialLock}. */
export function createSerialLock(): SerialLock {
  let tail: Promise<unknown> = Promise.resolve();
  const run = <T>(section: () => Promise<T>): Promise<T> => {
    const result = tail.then(section, section);
    tail = result.catch(() => undefined);
    return result;
  };
  return {
    run,
    runSync: (section) => run(() => Promise.resolve().then(section)),
  };
}
