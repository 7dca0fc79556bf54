/**
 * A client that cancels a slow write to the real board stops its handler within 100 ms of the
 * cancel, and nothing is written — over stdio (the board spawned as a child process), HTTP with a client pinned to
 * 2026-07-28, and HTTP with the SDK's default (2025-era) client. The slow store notes when the call's signal
 * fires; the test compares that with the moment it aborted, then waits until the slow write has woken up and
 * been refused, and counts the tasks.
 *
 * Figures: `GUARDRAILS_REPORT=1 npx vitest run test/guardrails-cancel.test.ts` prints abort → signal in ms.
 */
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { BoardStore } from '../apps/board/src/store/board-store.ts';
import { DATABASE_FILE } from '../apps/board/src/store/open-database.sqlite.ts';
import { startTestBoard, type Era, type TestBoard } from '../apps/board/src/testing/board-host.ts';

const STOP_WITHIN_MS = 100;
const SLOW_WRITE_MS = 1500;
const FIXTURE = fileURLToPath(new URL('./guardrails-stdio-slow-board.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MARKER = 'QUOKKA-CANCEL';

type StoreEvent =
  | { event: 'started'; at: number }
  | { event: 'signal'; at: number; reason: string }
  | { event: 'write'; outcome: 'written' | 'refused' };

/** Events of a slow store, and a bounded wait for the first one that matches. */
class StoreEvents {
  readonly seen: StoreEvent[] = [];
  private readonly waiters = new Set<() => void>();
  push(event: StoreEvent): void {
    this.seen.push(event);
    for (const wake of this.waiters) wake();
  }
  async next<K extends StoreEvent['event']>(
    kind: K,
    from: number,
    timeoutMs = 5000,
  ): Promise<Extract<StoreEvent, { event: K }>> {
    const find = () =>
      this.seen.slice(from).find((e): e is Extract<StoreEvent, { event: K }> => e.event === kind);
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = find();
        if (found === undefined) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(found);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no ${kind} event from the slow store within ${String(timeoutMs)} ms`));
      }, timeoutMs);
      this.waiters.add(check);
      check();
    });
  }
}

function report(label: string, ms: number): void {
  if (process.env['GUARDRAILS_REPORT'] === '1')
    console.log(`cancel ${label}: abort -> signal ${String(ms)} ms`);
}

/**
 * Starts a slow tasks_create, aborts it from the client once the write has started, and checks the handler's
 * signal fired within {@link STOP_WITHIN_MS} and the write was refused.
 */
async function cancelSlowCreate(client: Client, events: StoreEvents, label: string): Promise<number> {
  const from = events.seen.length;
  const controller = new AbortController();
  const settled = client
    .callTool(
      { name: 'tasks_create', arguments: { title: `${MARKER} ${label}` } },
      { signal: controller.signal },
    )
    .then(
      () => 'resolved',
      () => 'rejected',
    );
  await events.next('started', from);
  const abortedAt = Date.now();
  controller.abort('user pressed stop');
  expect(await settled).toBe('rejected');
  const fired = await events.next('signal', from);
  expect(fired.reason).toContain('cancelled');
  const written = await events.next('write', from, SLOW_WRITE_MS + 3000);
  expect(written.outcome).toBe('refused');
  const stoppedAfter = fired.at - abortedAt;
  report(label, stoppedAfter);
  expect(stoppedAfter).toBeGreaterThanOrEqual(0);
  expect(stoppedAfter).toBeLessThanOrEqual(STOP_WITHIN_MS);
  return stoppedAfter;
}

const httpEvents = new StoreEvents();
function slowWrites(inner: BoardStore): BoardStore {
  return {
    ...inner,
    async transaction(work, signal) {
      httpEvents.push({ event: 'started', at: Date.now() });
      signal?.addEventListener('abort', () => {
        httpEvents.push({ event: 'signal', at: Date.now(), reason: String(signal.reason) });
      });
      await new Promise((resolve) => setTimeout(resolve, SLOW_WRITE_MS));
      try {
        const result = await inner.transaction(work, signal);
        httpEvents.push({ event: 'write', outcome: 'written' });
        return result;
      } catch (error) {
        httpEvents.push({ event: 'write', outcome: 'refused' });
        throw error;
      }
    },
  };
}

let tb: TestBoard;
beforeAll(async () => {
  tb = await startTestBoard({ wrapStore: slowWrites });
});
afterAll(async () => {
  await tb.close();
});

const countMarked = (db: BetterSqlite3.Database): number =>
  (db.prepare('SELECT COUNT(*) AS n FROM tasks WHERE title LIKE ?').get(`${MARKER}%`) as { n: number }).n;

describe.each([
  ['modern', 'HTTP 2026-07-28'],
  ['legacy', 'HTTP 2025-era'],
] as [Era, string][])('cancellation over %s', (era, label) => {
  it(`stops the handler of a cancelled slow write within ${String(STOP_WITHIN_MS)} ms (${label}) and writes nothing`, async () => {
    const client = await tb.connect(era, 'maintainer');
    try {
      const before = countMarked(tb.board.db);
      await cancelSlowCreate(client, httpEvents, label);
      expect(countMarked(tb.board.db)).toBe(before);
      const entry = (await tb.board.callLog.recent({ tool: 'tasks_create', limit: 1 }))[0];
      expect(entry?.code).toBe('CALL_CANCELLED');
    } finally {
      await client.close();
    }
  }, 20_000);
});

describe.each(['modern', 'legacy'] as Era[])('cancellation over stdio, %s client', (era) => {
  it(`stops the handler of a cancelled slow write within ${String(STOP_WITHIN_MS)} ms and writes nothing`, async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', FIXTURE],
      cwd: ROOT,
      env: {
        ...(process.env as Record<string, string>),
        DATABASE_URL: '',
        GUARDRAILS_DATA_DIR: tb.dataDir,
        GUARDRAILS_SLOW_WRITE_MS: String(SLOW_WRITE_MS),
        RECOURSE_TOKEN: tb.tokens.maintainer,
      },
      stderr: 'pipe',
    });
    const events = new StoreEvents();
    createInterface({ input: transport.stderr as Readable }).on('line', (line) => {
      if (line.startsWith('GUARDRAILS ')) events.push(JSON.parse(line.slice(11)) as StoreEvent);
    });
    const client = new Client(
      { name: 'guardrails-stdio', version: '0.0.1' },
      era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    await client.connect(transport);
    try {
      const before = countMarked(tb.board.db);
      await cancelSlowCreate(client, events, `stdio ${era}`);
      const db = new BetterSqlite3(`${tb.dataDir}/${DATABASE_FILE}`, { readonly: true });
      try {
        expect(countMarked(db)).toBe(before);
      } finally {
        db.close();
      }
    } finally {
      await client.close();
    }
  }, 30_000);
});
