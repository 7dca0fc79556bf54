/**
 * Waiting out a SQLite database that another process holds locked, without blocking the event loop: the
 * connection's busy timeout is 0, so a locked database fails at once with `SQLITE_BUSY`, and the attempt is
 * repeated here after an asynchronous, growing, jittered pause until it succeeds, its budget runs out or its
 * signal fires. Other calls, the metadata document and health checks are served meanwhile.
 *
 * @packageDocumentation
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { transientFailure, type ToolFailure } from '@recourse/core';
import type { SerialLock } from './serial-lock.ts';

/** Default time a call waits for a locked database before it is told to retry: 2 s. */
export const DEFAULT_BUSY_BUDGET_MS = 2000;
/** How long to wait before retrying after {@link databaseBusy}, in ms. */
export const BUSY_RETRY_AFTER_MS = 1000;

/** Whether `error` is SQLite's "database is locked" (`SQLITE_BUSY*`, `SQLITE_LOCKED*`). */
export function isBusyError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** The `transient` failure of work not done because the database stayed locked. */
export function databaseBusy(waitedMs: number, cause: unknown): ToolFailure {
  return transientFailure({
    code: 'DATABASE_BUSY',
    message: `The board's database was locked by another process for ${Math.round(waitedMs)} ms, so the call was not run.`,
    next: 'If this repeats, ask the operator what else is writing to the board database.',
    retryAfterMs: BUSY_RETRY_AFTER_MS,
    changed: false,
    cause,
  });
}

/** Options of {@link retryWhileBusy}. */
export interface BusyRetryOptions {
  /** Longest total wait (default {@link DEFAULT_BUSY_BUDGET_MS}). */
  readonly budgetMs?: number;
  /** Stops waiting early (e.g. the call's deadline or cancellation); its reason is thrown. */
  readonly signal?: AbortSignal;
  /** Longest single pause (default 100 ms). */
  readonly maxPauseMs?: number;
}

/**
 * Runs `attempt`; while it fails with a busy error, pauses (2 ms doubling up to `maxPauseMs`, jittered) and runs
 * it again. Other errors pass through at once.
 *
 * @throws the `transient` failure `DATABASE_BUSY` (retry after 1 s, nothing changed) when the budget runs out;
 *   the signal's reason when it fires first.
 */
export async function retryWhileBusy<T>(
  attempt: () => Promise<T>,
  options: BusyRetryOptions = {},
): Promise<T> {
  const budgetMs = options.budgetMs ?? DEFAULT_BUSY_BUDGET_MS;
  const maxPauseMs = options.maxPauseMs ?? 100;
  const started = performance.now();
  let pause = 2;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusyError(error)) throw error;
      const waited = performance.now() - started;
      if (waited >= budgetMs) throw databaseBusy(waited, error);
      options.signal?.throwIfAborted();
      const wait = Math.min(pause * (0.5 + Math.random() / 2), budgetMs - waited);
      await sleep(wait, undefined, options.signal === undefined ? {} : { signal: options.signal }).catch(
        (abort: unknown) => {
          throw options.signal?.reason ?? abort;
        },
      );
      pause = Math.min(pause * 2, maxPauseMs);
    }
  }
}

/**
 * `lock`'s synchronous sections, each waited out with {@link retryWhileBusy} (default budget) while another
 * process holds the database locked: the wait happens between turns of the lock, so other sections run meanwhile.
 */
export function waitingOutBusy(lock: SerialLock): Pick<SerialLock, 'runSync'> {
  return { runSync: (section) => retryWhileBusy(() => lock.runSync(section)) };
}
