/**
 * A promise-chain lock: runs async sections one at a time, in call order. A section may open a nested section
 * (the handler of an idempotent write reading and writing inside the transaction that also records its result):
 * while the outer section runs, sections started from within it run at once instead of queueing behind it.
 *
 * @packageDocumentation
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Runs `section`s strictly one after another; a failing section does not block the next. */
export interface SerialLock {
  run<T>(section: () => Promise<T>): Promise<T>;
  /**
   * Runs a synchronous `section` (one better-sqlite3 statement or a few) in its turn; a throw becomes a
   * rejection and does not block the next section.
   */
  runSync<T>(section: () => T): Promise<T>;
  /**
   * Like {@link SerialLock.runSync} for a section that only reads: `beforeTurn` is not run for it, so reads keep
   * working where writes are refused (e.g. checking a token while the database file is gone).
   */
  readSync<T>(section: () => T): Promise<T>;
  /**
   * Like {@link SerialLock.runSync}, but always in a turn of its own, even when called from inside a section: for
   * writes that must never join (and be rolled back with) a transaction, such as the call log. Never await it
   * from inside a section: it runs only after that section has ended.
   */
  queueSync<T>(section: () => T): Promise<T>;
  /** Whether the caller runs inside a section of this lock (and so holds it). */
  held(): boolean;
}

/** Options of {@link createSerialLock}. */
export interface SerialLockOptions {
  /**
   * Runs at the start of every turn (not for a section joining its caller's turn); a throw fails that section
   * without running it, e.g. when the database file is gone.
   */
  readonly beforeTurn?: () => void;
}

/**
 * Creates a {@link SerialLock}.
 *
 * What a call pays for it: a read while no section is queued or running runs at once (synchronously, no turn
 * to wait for), which is the common case of a read-mostly server. Only asynchronous sections (`run`), whose
 * code may await, are tracked with an `AsyncLocalStorage`, so that a section started from within one joins it;
 * the storage is disabled again when the last of them ended. On Node 20 an enabled `AsyncLocalStorage` runs a
 * promise hook for every promise of the whole process, the SDK's included, so it is on only while a
 * transaction is open. Synchronous sections need no tracking: nothing can start inside them and wait for them.
 */
export function createSerialLock(options: SerialLockOptions = {}): SerialLock {
  let tail: Promise<unknown> = Promise.resolve();
  // Sections queued or running in a turn of their own; none: a read may run at once.
  let pending = 0;
  // Asynchronous sections running; the storage is disabled when the last one ends.
  let open = 0;
  // The section a piece of async code runs in; `open` turns false when it ends, so that work it left behind
  // (a timer, a late promise) queues like anyone else.
  const current = new AsyncLocalStorage<{ open: boolean }>();
  const held = (): boolean => open > 0 && current.getStore()?.open === true;
  const enterAsync = <T>(section: () => Promise<T>): Promise<T> => {
    const holder = { open: true };
    open += 1;
    return current.run(holder, section).finally(() => {
      holder.open = false;
      open -= 1;
      if (open === 0) current.disable();
    });
  };
  const enterSync = <T>(section: () => T): Promise<T> => Promise.resolve().then(section);
  const queue = <T>(enter: () => Promise<T>, guarded: boolean): Promise<T> => {
    const before = guarded ? options.beforeTurn : undefined;
    const turn = (): Promise<T> =>
      (before === undefined ? enter() : Promise.resolve().then(before).then(enter)).finally(() => {
        pending -= 1;
      });
    pending += 1;
    const result = tail.then(turn, turn);
    tail = result.catch(() => undefined);
    return result;
  };
  const run = <T>(section: () => Promise<T>): Promise<T> =>
    held() ? section() : queue(() => enterAsync(section), true);
  const runSync = <T>(section: () => T, join: boolean, guarded: boolean): Promise<T> =>
    join && held() ? enterSync(section) : queue(() => enterSync(section), guarded);
  return {
    run,
    runSync: (section) => runSync(section, true, true),
    // The executor runs at once; a throw of the section becomes the rejection.
    readSync: (section) =>
      pending === 0
        ? new Promise((resolve) => {
            resolve(section());
          })
        : runSync(section, true, false),
    queueSync: (section) => runSync(section, false, true),
    held,
  };
}
