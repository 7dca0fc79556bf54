/**
 * A logger that drops everything, for short CLI commands that never serve tool calls.
 *
 * @packageDocumentation
 */
import { pino, type Logger } from 'pino';

/** A pino logger at level `silent`. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
