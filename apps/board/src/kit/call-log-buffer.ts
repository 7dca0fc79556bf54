/**
 * Keeps call-log writes off the call path: entries wait in a bounded buffer and are written in batches, one
 * transaction (or one statement) per batch, shortly after they arrive, whenever the buffer fills, before every
 * read, and at shutdown.
 *
 * What this promises: an entry is in the database within {@link DEFAULT_FLUSH_INTERVAL_MS} of its call (plus the
 * time the write takes) and before `flush()` / `close()` resolve. What it does not: entries still in the buffer
 * when the process dies without closing (a crash, SIGKILL, power loss) are lost; that is at most the calls of the
 * last interval, or {@link DEFAULT_MAX_BUFFERED} entries. A failed batch is reported to `onError` and dropped;
 * calls are never failed or slowed by the log.
 *
 * @packageDocumentation
 */
import type { CallLogEntry } from '@recourse/server';

/** How long an entry may wait before its batch is written (default 100 ms). */
export const DEFAULT_FLUSH_INTERVAL_MS = 100;
/** How many entries may wait; when the buffer holds this many, the batch is written at once (default 500). */
export const DEFAULT_MAX_BUFFERED = 500;

/** Options of {@link createCallLogBuffer}. */
export interface CallLogBufferOptions {
  readonly flushIntervalMs?: number;
  readonly maxBuffered?: number;
  /** Receives a batch that could not be written (those entries are lost). */
  readonly onError?: (error: unknown, lost: number) => void;
}

/** A bounded buffer of call-log entries in front of a batch writer. */
export interface CallLogBuffer {
  /** Adds an entry; never throws, never waits for the database. */
  add(entry: CallLogEntry): void;
  /** Writes everything buffered so far; resolves when it is in the database (or its failure was reported). */
  flush(): Promise<void>;
  /** Flushes and stops the timer; later entries are written at once, one batch each. */
  close(): Promise<void>;
}

/** Creates a buffer in front of `writeBatch` (which writes all given entries, or fails for all of them). */
export function createCallLogBuffer(
  writeBatch: (entries: readonly CallLogEntry[]) => Promise<void>,
  options: CallLogBufferOptions = {},
): CallLogBuffer {
  const intervalMs = options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
  const maxBuffered = options.maxBuffered ?? DEFAULT_MAX_BUFFERED;
  let buffered: CallLogEntry[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  // Batches are written one after another, in order.
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (buffered.length === 0) return writing;
    const batch = buffered;
    buffered = [];
    writing = writing.then(() =>
      writeBatch(batch).catch((error: unknown) => options.onError?.(error, batch.length)),
    );
    return writing;
  };

  return {
    add(entry) {
      buffered.push(entry);
      if (closed || buffered.length >= maxBuffered) void flush();
      // unref: a pending flush never keeps the process alive; close() (at shutdown) writes what is left.
      else if (timer === undefined) timer = setTimeout(() => void flush(), intervalMs).unref();
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}
