/**
 * Crash and restart: `recourse-board serve` on SQLite is killed with SIGKILL while 8 writers create tasks with
 * idempotency keys through the SDK client, then started again on the same data directory. Each writer retries
 * the key it was writing when the server died until the write is acknowledged. At the end every acknowledged
 * key has exactly one task (0 lost, 0 duplicated) and no key is left unfinished (0 stuck).
 *
 * `npm test` runs 2 kills; `npm run test:hostile` (RECOURSE_HOSTILE=full) runs 10. Every loop is bounded in
 * count and in time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import { createBoardServer } from '../../apps/board/src/board-server.ts';
import { failureMetaOf } from '../../apps/board/src/testing/board-host.ts';
import { startServe, type ServeProcess } from '../../apps/board/src/testing/serve-process.ts';

const FULL = process.env['RECOURSE_HOSTILE'] === 'full';
const KILLS = FULL ? 10 : 2;
const WRITERS = 8;
/**
 * A round's kill comes after 8 to 48 more writes were acknowledged (at a random point in the writers' flow),
 * or after 20 s; the final round has 90 s to finish every key.
 */
const ROUND = { minWrites: 8, extraWrites: 40, killWithinMs: 20_000, finishMs: 90_000 };
/** Shorter deadline, so a claim orphaned by a kill is taken over after deadline + 5 s. */
const SERVE_FLAGS = ['--deadline', '2s', '--rate-limit', '1000000'];

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Tally {
  acknowledged: Set<string>;
  /** The key each writer was writing when its round ended, retried first in the next round. */
  pending: (string | undefined)[];
  nextIndex: number[];
  retries: number;
  /** Keys in flight when a kill came (the writer could not know whether they were written), all retried. */
  inFlightAtKill: number;
  refusals: string[];
}

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'crash-writer', version: '0.0.1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/**
 * Writer `w` creates tasks until `stop()` says so or the server dies under it (a transport error ends its
 * round). A retryable refusal (a claim still held, a deadline) is retried after the wait it names, capped at 1 s.
 */
async function writer(
  w: number,
  url: string,
  token: string,
  tally: Tally,
  stop: () => boolean,
): Promise<void> {
  let client: Client;
  try {
    client = await connect(url, token);
  } catch (error) {
    if (!stop()) tally.refusals.push(`writer ${w} could not connect: ${String(error)}`);
    return;
  }
  try {
    for (let calls = 0; calls < 10_000 && !stop(); calls += 1) {
      const key =
        tally.pending[w] ??
        `crash-w${w}-n${String((tally.nextIndex[w] = (tally.nextIndex[w] ?? 0) + 1)).padStart(5, '0')}`;
      tally.pending[w] = key;
      let result;
      try {
        result = await client.callTool(
          { name: 'tasks_create', arguments: { title: key, idempotencyKey: key } },
          { timeout: 20_000 },
        );
      } catch {
        return; // the server died: the key stays pending and is retried after the restart
      }
      if (result.isError !== true) {
        tally.acknowledged.add(key);
        tally.pending[w] = undefined;
        continue;
      }
      const failure = failureMetaOf(result);
      if (failure?.['retryable'] === true) {
        tally.retries += 1;
        await sleep(Math.min(Number(failure['retryAfterMs'] ?? 200), 1000));
        continue;
      }
      tally.refusals.push(`${key}: ${JSON.stringify(failure)}`);
      tally.pending[w] = undefined;
    }
  } finally {
    await client.close().catch(() => undefined);
  }
}

describe('crash and restart during keyed writes', () => {
  it(
    `loses, duplicates and leaves stuck no write across ${KILLS} kill -9 with ${WRITERS} writers`,
    { timeout: FULL ? 900_000 : 240_000 },
    async () => {
      const dataDir = join(mkdtempSync(join(tmpdir(), 'recourse-crash-')), 'data');
      dirs.push(dataDir);
      const seed = createBoardServer({ dataDir, logger: pino({ level: 'silent' }) });
      const owner = await seed.services.members.add({ name: 'Owner', kind: 'person', role: 'owner' });
      const { token } = await seed.services.tokens.create(owner.id);
      await seed.close();

      const tally: Tally = {
        acknowledged: new Set(),
        pending: Array.from({ length: WRITERS }, () => undefined),
        nextIndex: Array.from({ length: WRITERS }, () => 0),
        retries: 0,
        inFlightAtKill: 0,
        refusals: [],
      };
      const started = Date.now();
      let kills = 0;
      for (let round = 0; round < KILLS; round += 1) {
        const serve: ServeProcess = await startServe(dataDir, false, SERVE_FLAGS);
        let stopped = false;
        const writers = Array.from({ length: WRITERS }, (_, w) =>
          writer(w, serve.url, token, tally, () => stopped),
        );
        const before = tally.acknowledged.size;
        const target = before + ROUND.minWrites + Math.floor(Math.random() * ROUND.extraWrites);
        const killBy = Date.now() + ROUND.killWithinMs;
        while (tally.acknowledged.size < target && Date.now() < killBy) await sleep(5);
        // Writers that fail to connect or call from here on met the kill, not a fault.
        stopped = true;
        process.kill(serve.pid, 'SIGKILL');
        expect(await serve.exited).toBe('SIGKILL');
        kills += 1;
        await Promise.all(writers);
        tally.inFlightAtKill += tally.pending.filter((key) => key !== undefined).length;
        // Each round must make progress, or the kills would prove nothing.
        expect(tally.acknowledged.size, `round ${round} acknowledged nothing`).toBeGreaterThan(before);
      }

      // The last start: every writer finishes the key it was writing when the server died.
      const serve = await startServe(dataDir, false, SERVE_FLAGS);
      const finishBy = Date.now() + ROUND.finishMs;
      const unfinished = (): boolean => tally.pending.some((key) => key !== undefined);
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, w) => {
          while (tally.pending[w] !== undefined && Date.now() < finishBy) {
            await writer(w, serve.url, token, tally, () => tally.pending[w] === undefined);
          }
        }),
      );
      const stuck = tally.pending.filter((key): key is string => key !== undefined);
      expect(unfinished()).toBe(stuck.length > 0);
      expect(await serve.stop()).toBe(0);

      const board = createBoardServer({ dataDir, logger: pino({ level: 'silent' }) });
      const { tasks } = await board.services.tasks.search({ limit: 100_000, offset: 0 });
      await board.close();
      const counts = new Map<string, number>();
      for (const task of tasks) counts.set(task.title, (counts.get(task.title) ?? 0) + 1);
      const lost = [...tally.acknowledged].filter((key) => !counts.has(key));
      const duplicated = [...counts].filter(([, n]) => n > 1).map(([title]) => title);
      const unknown = [...counts.keys()].filter((title) => !tally.acknowledged.has(title));

      console.log(
        `crash-restart: ${kills} kills, ${WRITERS} writers, ${tally.acknowledged.size} writes acknowledged, ` +
          `${tasks.length} tasks stored, ${lost.length} lost, ${duplicated.length} duplicated, ` +
          `${stuck.length} keys stuck, ${tally.inFlightAtKill} writes in flight at a kill retried, ` +
          `${tally.retries} retryable refusals retried, ` +
          `${Math.round((Date.now() - started) / 1000)} s`,
      );
      expect(tally.refusals).toEqual([]);
      expect(lost).toEqual([]);
      expect(duplicated).toEqual([]);
      expect(stuck).toEqual([]);
      expect(unknown).toEqual([]);
      expect(kills).toBe(KILLS);
    },
  );
});
