/**
 * Reading and checking a POSTed MCP body: size limit, content type, JSON, JSON-RPC shape.
 *
 * @packageDocumentation
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { HOST_REFUSAL_CODES, JSON_RPC_CODES } from './refusal-codes.ts';
import { NOTHING_CHANGED, clip, type HttpRefusal, type JsonRpcId } from './http-refusal.ts';
import {
  DEFAULT_MAX_JSON_DEPTH,
  idOfJsonText,
  jsonDepth,
  requestIdOf,
  tooDeepMessage,
} from '../json-depth.ts';

/** Default body limit: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

const SEND_JSON_RPC = 'Send one JSON-RPC 2.0 message (or a batch array of them) as application/json';
const UNCHANGED_RETRY = `retrying the same body will be refused again. ${NOTHING_CHANGED}`;

/** Refuses (413, -31413) a body whose declared `Content-Length` is over `maxBytes`. */
export function checkDeclaredSize(headers: IncomingHttpHeaders, maxBytes: number): HttpRefusal | undefined {
  const declared = Number(headers['content-length']);
  return Number.isFinite(declared) && declared > maxBytes
    ? tooLarge(`${declared} bytes`, maxBytes)
    : undefined;
}

/** Refuses (415, -31415) a body whose media type is not `application/json`. */
export function checkContentType(headers: IncomingHttpHeaders): HttpRefusal | undefined {
  const raw = headers['content-type'];
  const essence = raw?.split(';')[0]?.trim().toLowerCase();
  if (essence === 'application/json') return undefined;
  const what =
    raw === undefined ? 'No Content-Type header was sent' : `The Content-Type "${clip(raw)}" is not accepted`;
  return {
    status: 415,
    code: HOST_REFUSAL_CODES.UnsupportedMediaType,
    reason: 'content-type',
    message: `${what}; expected application/json. ${SEND_JSON_RPC}; ${UNCHANGED_RETRY}`,
    data: { expected: 'application/json' },
  };
}

/** The outcome of reading a body: its text, or a 413 refusal once more than `maxBytes` arrived. */
export type BodyRead =
  { readonly ok: true; readonly text: string } | { readonly ok: false; readonly refusal: HttpRefusal };

/**
 * How much of a refused body is read and thrown away before the answer (4× the body limit, at least 16 MiB): a
 * client still sending its body reads the answer only once it has sent it all (Node's fetch reports a connection
 * reset otherwise). A body beyond this bound is cut off and its connection closed.
 */
export function discardLimit(maxBytes: number): number {
  return Math.max(16 * 1024 * 1024, 4 * maxBytes);
}

/**
 * Reads the rest of the request body and throws it away, up to `limit` bytes; resolves true when the body ended
 * within the limit (the connection can then carry the answer), false when it was cut off.
 */
export async function discardBody(req: IncomingMessage, limit: number): Promise<boolean> {
  if (req.readableEnded) return true;
  let received = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    received += chunk.byteLength;
    // Leaving the loop destroys the request and its connection.
    if (received > limit) return false;
  }
  return true;
}

/**
 * Reads the request body as UTF-8 text. Once it exceeds `maxBytes` the rest is read and thrown away (up to
 * {@link discardLimit}) so that the client can read the 413 the caller then answers.
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const limit = discardLimit(maxBytes);
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    received += chunk.byteLength;
    // Leaving the loop destroys the request and its connection.
    if (received > limit) break;
    if (received <= maxBytes) chunks.push(chunk);
  }
  if (received > maxBytes) return { ok: false, refusal: tooLarge(`more than ${maxBytes} bytes`, maxBytes) };
  return { ok: true, text: Buffer.concat(chunks).toString('utf8') };
}

/**
 * Most messages in one batch (default 16): a batch is one HTTP request to the rate limit and the flood guard, so a
 * larger one would multiply the work and the answer (100 `tools/list` answer 1.4 MB) at the price of one.
 */
export const DEFAULT_MAX_BATCH_MESSAGES = 16;

/** A parsed JSON-RPC body with the id to echo in refusals (`null` for batches and notifications). */
export type ParsedBody =
  | { readonly ok: true; readonly body: unknown; readonly id: JsonRpcId }
  | { readonly ok: false; readonly refusal: HttpRefusal; readonly id: JsonRpcId };

/**
 * Parses `text` as JSON-RPC 2.0: a text nesting deeper than `maxDepth` (default 64) is refused with -32600
 * before it is parsed, malformed JSON with -32700, a batch of more than `maxBatch` messages, or JSON that is not
 * a JSON-RPC message or batch, with -32600 (all HTTP 400).
 */
export function parseJsonRpcBody(
  text: string,
  maxDepth = DEFAULT_MAX_JSON_DEPTH,
  maxBatch = DEFAULT_MAX_BATCH_MESSAGES,
): ParsedBody {
  if (jsonDepth(text, maxDepth) > maxDepth) {
    return {
      ok: false,
      id: idOfJsonText(text),
      refusal: {
        status: 400,
        code: JSON_RPC_CODES.InvalidRequest,
        reason: 'json-depth',
        message: tooDeepMessage(maxDepth),
        data: { maxDepth },
      },
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const detail =
      text.trim() === ''
        ? 'the body is empty'
        : clip(error instanceof Error ? error.message : 'unparseable', 120);
    return {
      ok: false,
      id: null,
      refusal: {
        status: 400,
        code: JSON_RPC_CODES.ParseError,
        reason: 'parse',
        message: `The request body is not valid JSON (${detail}). ${SEND_JSON_RPC}; ${UNCHANGED_RETRY}`,
      },
    };
  }
  const id = requestIdOf(body);
  if (Array.isArray(body) && body.length > maxBatch) {
    return {
      ok: false,
      id: null,
      refusal: {
        status: 400,
        code: JSON_RPC_CODES.InvalidRequest,
        reason: 'batch-size',
        message: `The request body is a batch of ${body.length} JSON-RPC messages; at most ${maxBatch} are accepted in one request. Send them in several requests; nothing was changed.`,
        data: { maxBatch },
      },
    };
  }
  const problem = Array.isArray(body)
    ? body.length === 0
      ? 'the batch array is empty'
      : body.map(messageProblem).find((p) => p !== undefined)
    : messageProblem(body);
  if (problem === undefined) return { ok: true, body, id };
  return {
    ok: false,
    id,
    refusal: {
      status: 400,
      code: JSON_RPC_CODES.InvalidRequest,
      reason: 'not-json-rpc',
      message: `The request body is JSON but not a JSON-RPC 2.0 message: ${problem}. ${SEND_JSON_RPC}; ${UNCHANGED_RETRY}`,
    },
  };
}

function messageProblem(message: unknown): string | undefined {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) {
    return `expected an object, received ${message === null ? 'null' : Array.isArray(message) ? 'a nested array' : typeof message}`;
  }
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== '2.0')
    return `"jsonrpc" must be "2.0", received ${clip(JSON.stringify(m.jsonrpc) ?? 'nothing', 40)}`;
  const idOk = m.id === undefined || typeof m.id === 'string' || typeof m.id === 'number';
  if ('method' in m) {
    if (typeof m.method !== 'string') return '"method" must be a string';
    return idOk ? undefined : '"id" must be a string or a number';
  }
  if ('result' in m || 'error' in m)
    return idOk || m.id === null ? undefined : '"id" must be a string or a number';
  return 'it has neither "method" (request or notification) nor "result"/"error" (response)';
}

function tooLarge(received: string, maxBytes: number): HttpRefusal {
  return {
    status: 413,
    code: HOST_REFUSAL_CODES.PayloadTooLarge,
    reason: 'body-size',
    headers: { connection: 'close' },
    message:
      `The request body is too large: ${received}, the limit is ${maxBytes} bytes. ` +
      `Send a smaller request (split large imports into several calls); ${UNCHANGED_RETRY}`,
    data: { maxBytes },
  };
}
