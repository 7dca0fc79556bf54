/**
 * Writes finished calls to the call log without letting a failing sink break a call.
 *
 * @packageDocumentation
 */
import type { Logger } from './logger.ts';
import type { CallLogEntry, CallLogSink } from './contract.ts';

/**
 * Records one entry and resolves once the sink stored it, so that the pipeline can answer a call after its entry
 * is written; sink errors (thrown or rejected) are logged at warn level and swallowed (never rejects).
 */
export type CallRecorder = (entry: CallLogEntry) => Promise<void>;

/** Creates a recorder for `sink`; without a sink it does nothing. */
export function createCallRecorder(sink: CallLogSink | undefined, logger: Logger): CallRecorder {
  if (sink === undefined) return () => Promise.resolve();
  const warn = (error: unknown): void => {
    logger.warn({ err: error }, 'call log entry could not be recorded');
  };
  return async (entry) => {
    try {
      await sink.record(entry);
    } catch (error) {
      warn(error);
    }
  };
}
