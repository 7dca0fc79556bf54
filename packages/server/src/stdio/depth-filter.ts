/**
 * The stdio leg's guard against deeply nested messages: a line nesting deeper than the limit is answered with
 * -32600 here and never reaches the SDK, whose schema code recurses over every message. A request line of the
 * wrong shape, which the SDK would drop unanswered, is answered with -32600 too ({@link invalidRequestAnswer}),
 * a line that is not JSON with -32700, and JSON that is not an object (a batch included) with -32600.
 *
 * @packageDocumentation
 */
import { Transform, type Readable } from 'node:stream';
import { idOfJsonText, jsonDepth, tooDeepMessage } from '../json-depth.ts';
import { invalidRequestAnswer } from './request-shape.ts';

/** The line parsed, or undefined when it is not JSON. */
function parsed(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** The start of a refused line for a message, cut and quoted. */
function quoted(line: string): string {
  const start = line.trim().slice(0, 40);
  return `\`${start}${line.trim().length > 40 ? '…' : ''}\``;
}

/**
 * The answer (id null) to a line the SDK would drop without a word: text that is not JSON (-32700), a batch (a
 * JSON array, which the protocol no longer has), or JSON that is not an object (-32600); undefined otherwise.
 */
function unreadableAnswer(line: string, message: unknown): string | undefined {
  if (line.trim() === '') return undefined;
  let error: { code: number; message: string } | undefined;
  if (message === undefined) {
    error = {
      code: -32700,
      message:
        `Parse error: the line starting ${quoted(line)} is not JSON; each line must be one JSON-RPC message. ` +
        'Nothing was done; send it again as valid JSON on a single line.',
    };
  } else if (Array.isArray(message)) {
    error = {
      code: -32600,
      message:
        `Invalid request: the line ${quoted(line)} is a JSON array (a batch); this server takes one JSON-RPC ` +
        'message per line and answers no batch. Nothing was done; send each message on its own line.',
    };
  } else if (message === null || typeof message !== 'object') {
    error = {
      code: -32600,
      message:
        `Invalid request: the line ${quoted(line)} is a JSON ${message === null ? 'null' : typeof message}, ` +
        'not a JSON-RPC message; expected an object with "jsonrpc": "2.0" and a "method". Nothing was done.',
    };
  }
  return error === undefined ? undefined : `${JSON.stringify({ jsonrpc: '2.0', id: null, error })}\n`;
}

/**
 * Pipes `input` through a line filter: lines nesting at most `maxDepth` levels pass unchanged; deeper ones, and
 * requests of the wrong shape, are dropped and `answer` gets the JSON-RPC error line (code -32600, the request's
 * id) to write to the client; so do lines that are not JSON (-32700) or not a JSON-RPC message (-32600).
 */
export function filterDeepLines(input: Readable, maxDepth: number, answer: (line: string) => void): Readable {
  let pending = '';
  const pass = (line: string, out: Transform): void => {
    if (jsonDepth(line, maxDepth) <= maxDepth) {
      const message = parsed(line);
      const refusal = unreadableAnswer(line, message) ?? invalidRequestAnswer(message);
      if (refusal === undefined) out.push(`${line}\n`);
      else answer(refusal);
      return;
    }
    const error = { code: -32600, message: tooDeepMessage(maxDepth), data: { maxDepth } };
    answer(`${JSON.stringify({ jsonrpc: '2.0', id: idOfJsonText(line), error })}\n`);
  };
  const filter = new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      pending += chunk.toString();
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        pass(pending.slice(0, newline), this);
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
      done();
    },
    flush(done) {
      if (pending !== '') pass(pending, this);
      pending = '';
      done();
    },
  });
  return input.pipe(filter);
}
