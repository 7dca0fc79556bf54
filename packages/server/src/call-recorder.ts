/**
 * Writes finished calls to the call log without letting a failing sink break a call.
 *
 * @packageDocumentation
 */
import type { Logger } from './logger.ts';
import type { CallLogEntry, CallLogSink } from './contract.ts';

/** Records one entry; sink errors (thrown or rejected) are logged at warn level and swallowed. */
export type CallRecorder = (entry: CallLogEntry) => void;

/** Creates a recorder for `sink`; without a sink it does nothing. */
export function createCallRecorder(sink: CallLogSink | undefined, logger: Logger): CallRecorder {
  if (sink === undefined) return () => undefined;
  const warn = (error: unknown): void => {
    logger.warn({ err: error }, 'call log entry could not be recorded');
  };
  return (entry) => {
    try {
      const pending = sink.record(entry);
      if (pending !== undefined) pending.catch(warn);
    } catch (error) {
      warn(error);
    }
  };
}
