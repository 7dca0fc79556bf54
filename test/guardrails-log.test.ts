/**
 * The call log: after guardrail calls against one board data directory — a served call, an idempotency
 * conflict, a rate-limit refusal, a deadline miss, a validation failure and a cancelled write over HTTP in both
 * eras, and calls over stdio through the `recourse-board stdio` binary — `recourse-board log` on that directory
 * shows each call with its outcome category, code and correlation id (the same id the client was given), and none
 * of the argument values sent (distinctive marker strings in titles, keys and refs).
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { BoardStore } from '../apps/board/src/store/board-store.ts';
import { BOARD_BIN, connectStdioBoard } from '../apps/board/src/testing/stdio-client.ts';
import {
  failureMetaOf,
  startTestBoard,
  type Era,
  type TestBoard,
} from '../apps/board/src/testing/board-host.ts';

/** The CLI's environment, without DATABASE_URL, so that it reads the SQLite data directory given. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL'));
const DEADLINE_MS = 300;
/** Argument values that must never reach the log. */
const MARKERS = ['NARWHAL-OK', 'NARWHAL-KEY', 'NARWHAL-OTHER', 'NARWHAL-SLOW', 'NARWHAL-STATUS', 'T-90417'];

const state = { slow: false, onSlowWrite: (): void => undefined };
function slowWhenAsked(inner: BoardStore): BoardStore {
  return {
    ...inner,
    async transaction(work, signal) {
      if (state.slow) {
        state.onSlowWrite();
        await new Promise((resolve) => setTimeout(resolve, DEADLINE_MS + 500));
      }
      return inner.transaction(work, signal);
    },
  };
}

/** What a client saw: tool, expected outcome and code, and the correlation id it was given (failures). */
interface Seen {
  readonly tool: string;
  readonly outcome: string;
  readonly code: string;
  readonly correlationId?: string;
}

let tb: TestBoard;
const seen: Seen[] = [];
beforeAll(async () => {
  tb = await startTestBoard({
    defaultDeadlineMs: DEADLINE_MS,
    rateLimit: { perRole: { viewer: 2 } },
    wrapStore: slowWhenAsked,
  });
});
afterAll(async () => {
  await tb.close();
});

async function call(
  client: Client,
  tool: string,
  args: Record<string, unknown>,
  outcome: string,
  code: string,
) {
  const result = await client.callTool({ name: tool, arguments: args });
  const meta = failureMetaOf(result);
  if (outcome === 'ok') expect(result.isError, JSON.stringify(meta)).toBeFalsy();
  else expect(meta).toMatchObject({ category: outcome, code });
  const correlationId = meta?.['correlationId'];
  seen.push({ tool, outcome, code, ...(typeof correlationId === 'string' ? { correlationId } : {}) });
}

describe.each(['modern', 'legacy'] as Era[])('guardrail calls over HTTP, %s client', (era) => {
  it('are answered with their outcome', async () => {
    const maintainer = await tb.connect(era, 'maintainer');
    const viewer = await tb.connect(era, 'viewer');
    try {
      const key = `NARWHAL-KEY-${era}`;
      await call(maintainer, 'tasks_create', { title: `NARWHAL-OK ${era}`, idempotencyKey: key }, 'ok', '-');
      await call(
        maintainer,
        'tasks_create',
        { title: `NARWHAL-OTHER ${era}`, idempotencyKey: key },
        'conflict',
        'IDEMPOTENCY_KEY_REUSED',
      );
      await call(
        maintainer,
        'tasks_create',
        { title: 'x', status: `NARWHAL-STATUS-${era}` },
        'validation',
        'INVALID_ARGUMENTS',
      );
      state.slow = true;
      try {
        await call(
          maintainer,
          'tasks_create',
          { title: `NARWHAL-SLOW ${era}` },
          'transient',
          'DEADLINE_EXCEEDED',
        );
        // A cancelled write: aborted by the client once the slow store has it.
        const controller = new AbortController();
        const started = new Promise<void>((resolve) => {
          state.onSlowWrite = resolve;
        });
        const settled = maintainer
          .callTool(
            { name: 'tasks_create', arguments: { title: `NARWHAL-SLOW cancelled ${era}` } },
            { signal: controller.signal },
          )
          .then(
            () => 'resolved',
            () => 'rejected',
          );
        await started;
        controller.abort('user pressed stop');
        expect(await settled).toBe('rejected');
        seen.push({ tool: 'tasks_create', outcome: 'transient', code: 'CALL_CANCELLED' });
      } finally {
        state.slow = false;
        state.onSlowWrite = () => undefined;
      }
      if (era === 'modern') {
        // The viewer may make 2 calls a minute; both eras share the member, so the refusal comes here once.
        await call(viewer, 'whoami', {}, 'ok', '-');
        await call(viewer, 'whoami', {}, 'ok', '-');
        await call(viewer, 'tasks_get', { ref: 'T-90417' }, 'rate_limit', 'RATE_LIMITED');
      }
    } finally {
      await maintainer.close();
      await viewer.close();
    }
  }, 30_000);
});

describe('guardrail calls over stdio', () => {
  it('are answered with their outcome by the recourse-board stdio binary', async () => {
    const client = await connectStdioBoard({
      dataDir: tb.dataDir,
      token: tb.tokens.owner,
      name: 'guardrails-log',
    });
    try {
      await call(client, 'whoami', {}, 'ok', '-');
      await call(client, 'tasks_get', { ref: 'T-90417' }, 'not_found', 'TASK_NOT_FOUND');
    } finally {
      await client.close();
    }
  }, 30_000);
});

describe('recourse-board log on that data directory', () => {
  it('shows every call with its outcome, code and correlation id, and no argument values', () => {
    const log = spawnSync(process.execPath, [BOARD_BIN, 'log', '--data-dir', tb.dataDir, '--limit', '100'], {
      encoding: 'utf8',
      timeout: 20_000,
      env: ENV,
    });
    expect(log.status, log.stderr).toBe(0);
    const [header, ...lines] = log.stdout.trim().split('\n');
    expect(header).toBe('time\tmember\ttool\toutcome\tcode\tduration\tcorrelation');
    const rows = lines.map((line) => {
      const [at, member, tool, outcome, code, duration, correlationId] = line.split('\t');
      return { at, member, tool, outcome, code, duration, correlationId };
    });
    expect(rows).toHaveLength(seen.length);
    for (const row of rows) {
      expect(row.correlationId).toMatch(/^c_[A-Za-z0-9_-]+$/);
      expect(row.member).toMatch(/^m_/);
      expect(row.duration).toMatch(/^\d+ms$/);
    }
    // Every call the clients made is there once, with its outcome and code; failures under the id they were given.
    const remaining = [...rows];
    for (const s of seen) {
      const index = remaining.findIndex(
        (r) =>
          r.tool === s.tool &&
          r.outcome === s.outcome &&
          r.code === s.code &&
          (s.correlationId === undefined || r.correlationId === s.correlationId),
      );
      expect(index, JSON.stringify(s)).toBeGreaterThanOrEqual(0);
      remaining.splice(index, 1);
    }
    const outcomes = new Set(rows.map((r) => r.outcome));
    for (const outcome of ['ok', 'conflict', 'validation', 'transient', 'rate_limit', 'not_found'])
      expect(outcomes).toContain(outcome);
    for (const marker of MARKERS) expect(log.stdout).not.toContain(marker);
    expect(log.stdout).not.toContain('NARWHAL');
  });
});
