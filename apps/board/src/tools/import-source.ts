/**
 * Reads the rows of an import from an `http(s)` URL of a CSV or JSON file, under its own deadline (shorter than
 * the import's), with a size limit and failures that say what went wrong and that nothing was imported.
 *
 * @packageDocumentation
 */
import { parse } from 'csv-parse/sync';
import { businessRule, invalidArgument, isToolFailure, transientFailure } from '@recourse/core';

/** 10 seconds: how long the import source has to answer completely, by default. */
export const DEFAULT_IMPORT_FETCH_MS = 10_000;
/** 5 MiB: the largest import file read, by default. */
export const DEFAULT_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/** Limits of reading an import source. */
export interface ImportSourceOptions {
  /** Deadline of the whole fetch, headers and body (default 10 s). */
  readonly timeoutMs?: number;
  /** Largest body read (default 5 MiB). */
  readonly maxBytes?: number;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} second${s === 1 ? '' : 's'}`;
}

async function readLimited(response: Response, maxBytes: number, url: string): Promise<string> {
  const body = response.body as ReadableStream<Uint8Array> | null;
  const reader = body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw businessRule({
        code: 'IMPORT_SOURCE_TOO_LARGE',
        message: `The import source ${url} is larger than ${maxBytes} bytes.`,
        next: 'Split the file into smaller files and import them one by one. Nothing was imported.',
      });
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function csvRows(text: string): Record<string, unknown>[] {
  const records = parse<Record<string, string>>(text, {
    columns: true,
    skip_empty_lines: true,
    trim: true,
    bom: true,
  });
  return records.map((record) => {
    const row: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(record)) {
      if (value === '') continue;
      row[key] =
        key === 'labels'
          ? value
              .split(';')
              .map((label) => label.trim())
              .filter(Boolean)
          : value;
    }
    return row;
  });
}

function jsonRows(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value as unknown[];
  if (typeof value !== 'object' || value === null) return undefined;
  const tasks: unknown = (value as { tasks?: unknown }).tasks;
  return Array.isArray(tasks) ? (tasks as unknown[]) : undefined;
}

function unreadable(url: string, why: string): Error {
  return invalidArgument({
    field: 'source',
    received: url,
    expected:
      'a JSON file (an array of tasks, or { "tasks": [...] }) or a CSV file with a header row (title, description, status, assignee, labels, due)',
    message: `The import source ${url} could not be read as tasks: ${why}.`,
    next: 'Fix the file or pass the rows in `tasks`. Nothing was imported.',
  });
}

/**
 * Fetches `url` and parses it as JSON (content type or `.json`) or CSV (anything else that is not JSON). Failures:
 * `transient` / `UPSTREAM_TIMEOUT` when the source does not answer within the deadline, `transient` /
 * `UPSTREAM_UNAVAILABLE` for a network error or HTTP 5xx, `business` / `UPSTREAM_REFUSED` for another non-2xx
 * status, `business` / `IMPORT_SOURCE_TOO_LARGE`, `validation` for an unreadable file. Each says that nothing was
 * imported. The caller's `signal` (cancellation, the import's own deadline) stops the fetch too.
 */
export async function fetchImportRows(
  url: string,
  signal: AbortSignal,
  options: ImportSourceOptions = {},
): Promise<unknown[]> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_IMPORT_FETCH_MS;
  const upstream = AbortSignal.timeout(timeoutMs);
  let text: string;
  let contentType: string;
  try {
    const response = await fetch(url, {
      signal: AbortSignal.any([signal, upstream]),
      headers: { accept: 'application/json, text/csv;q=0.9, */*;q=0.5' },
      redirect: 'follow',
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      if (response.status >= 500)
        throw transientFailure({
          code: 'UPSTREAM_UNAVAILABLE',
          message: `The import source ${url} answered HTTP ${response.status}.`,
          next: 'Nothing was imported. Retry later, or pass the rows in `tasks`.',
          retryAfterMs: 30_000,
        });
      throw businessRule({
        code: 'UPSTREAM_REFUSED',
        message: `The import source ${url} answered HTTP ${response.status}.`,
        next: 'Nothing was imported. Check the URL (it must be readable without signing in), or pass the rows in `tasks`.',
      });
    }
    contentType = response.headers.get('content-type') ?? '';
    text = await readLimited(response, options.maxBytes ?? DEFAULT_IMPORT_MAX_BYTES, url);
  } catch (error) {
    if (signal.aborted) throw signal.reason as Error;
    if (upstream.aborted)
      throw transientFailure({
        code: 'UPSTREAM_TIMEOUT',
        message: `The import source did not answer within ${seconds(timeoutMs)} (${url}). Nothing was imported.`,
        next: 'Check that the URL answers quickly, or pass the rows in `tasks`; retrying later may help.',
        retryAfterMs: 30_000,
      });
    if (isToolFailure(error)) throw error;
    throw transientFailure({
      code: 'UPSTREAM_UNAVAILABLE',
      message: `The import source ${url} could not be reached. Nothing was imported.`,
      next: 'Check the URL, or pass the rows in `tasks`; retrying later may help.',
      retryAfterMs: 30_000,
      cause: error,
    });
  }
  const asJson = contentType.includes('json') || /\.json(\?|$)/i.test(url);
  if (asJson) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw unreadable(url, 'it is not valid JSON');
    }
    const rows = jsonRows(parsed);
    if (rows === undefined)
      throw unreadable(url, 'the JSON is neither an array nor an object with a `tasks` array');
    return rows;
  }
  try {
    return csvRows(text);
  } catch (error) {
    throw unreadable(
      url,
      `it is not valid CSV (${error instanceof Error ? error.message.slice(0, 120) : 'parse error'})`,
    );
  }
}
