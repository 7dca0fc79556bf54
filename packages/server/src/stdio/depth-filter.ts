/**
 * The stdio leg's guard against deeply nested messages: a line nesting deeper than the limit is answered with
 * -32600 here and never reaches the SDK, whose schema code recurses over every message. A request line of the
 * wrong shape, which the SDK would drop unanswered, is answered with -32600 too ({@link invalidRequestAnswer}).
 *
 * @packageDocumentation
 */
import { Transform, type Readable } from 'node:stream';
import { jsonDepth, tooDeepMessage } from '../json-depth.ts';
import { invalidRequestAnswer } from './request-shape.ts';

/** The line parsed, or undefined when it is not JSON. */
function parsed(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** The id of a JSON-RPC request line, or `null`; `JSON.parse` itself does not recurse in V8. */
function idOf(line: string): string | number | null {
  try {
    const message = JSON.parse(line) as unknown;
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return null;
    const id = (message as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/**
 * Pipes `input` through a line filter: lines nesting at most `maxDepth` levels pass unchanged; deeper ones, and
 * requests of the wrong shape, are dropped and `answer` gets the JSON-RPC error line (code -32600, the request's
 * id) to write to the client.
 */
export function filterDeepLines(input: Readable, maxDepth: number, answer: (line: string) => void): Readable {
  let pending = '';
  const pass = (line: string, out: Transform): void => {
    if (jsonDepth(line, maxDepth) <= maxDepth) {
      const refusal = invalidRequestAnswer(parsed(line));
      if (refusal === undefined) out.push(`${line}\n`);
      else answer(refusal);
      return;
    }
    const error = { code: -32600, message: tooDeepMessage(maxDepth), data: { maxDepth } };
    answer(`${JSON.stringify({ jsonrpc: '2.0', id: idOf(line), error })}\n`);
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
