/**
 * The logger the kit writes to: any object with pino's level methods. A pino logger fits as it is; so does a thin
 * adapter over another library.
 *
 * @packageDocumentation
 */

/** One level method: a message, or an object of fields (an `err` field holds an error) and a message. */
export interface LogMethod {
  (fields: object, message?: string): void;
  (message: string): void;
}

/** What the kit needs from a logger; `child` adds fields (such as a correlation id) to every later line. */
export interface Logger {
  child(bindings: Record<string, unknown>): Logger;
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
}
