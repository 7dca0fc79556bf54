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

/** Creates a {@link SerialLock}. */
export function createSerialLock(options: SerialLockOptions = {}): SerialLock {
  let tail: Promise<unknown> = Promise.resolve();
  // The section a piece of async code runs in; `open` turns false when it ends, so that work it left behind
  // (a timer, a late promise) queues like anyone else.
  const current = new AsyncLocalStorage<{ open: boolean }>();
  const held = (): boolean => current.getStore()?.open === true;
  const run = <T>(section: () => Promise<T>, join = true, guarded = true): Promise<T> => {
    if (join && held()) return section();
    const enter = (): Promise<T> => {
      const holder = { open: true };
      return current.run(holder, section).finally(() => {
        holder.open = false;
      });
    };
    const before = guarded ? options.beforeTurn : undefined;
    const turn = (): Promise<T> =>
      before === undefined ? enter() : Promise.resolve().then(before).then(enter);
    const result = tail.then(turn, turn);
    tail = result.catch(() => undefined);
    return result;
  };
  return {
    run,
    runSync: (section) => run(() => Promise.resolve().then(section)),
    readSync: (section) => run(() => Promise.resolve().then(section), true, false),
    queueSync: (section) => run(() => Promise.resolve().then(section), false),
    held,
  };
}
