import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '@recourse/board';
import { runAgent } from './client.ts';
import type { StoryReport } from './client.ts';
import { startStoryServer } from './server.ts';
import type { StoryServer } from './server.ts';

let server: StoryServer;
let report: StoryReport;
const opened: Database.Database[] = [];

/** The board's SQLite database, opened read-only: the story checks what was stored. */
function storyDb(): Database.Database {
  const db = new Database(join(server.dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  opened.push(db);
  return db;
}

beforeAll(async () => {
  server = await startStoryServer({ dropEvery: 3 });
  report = await runAgent(server);
});
afterAll(async () => {
  for (const db of opened) db.close();
  await server.close();
});

function outcomes(step: string): string[] {
  return report.steps.filter((s) => s.step.startsWith(step)).map((s) => s.outcome);
}

describe('the agent story', () => {
  it('creates its backlog exactly once although connections dropped before and after tasks_create ran', () => {
    expect(server.proxy.counts.drop_before).toBeGreaterThanOrEqual(1);
    expect(server.proxy.counts.drop_after).toBeGreaterThanOrEqual(1);
    const rows = storyDb()
      .prepare("SELECT title FROM tasks WHERE labels LIKE '%story%' ORDER BY ref")
      .all() as { title: string }[];
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.title)).size).toBe(6);
    expect(report.createdRefs).toHaveLength(6);
    expect(report.steps.filter((s) => s.step === 'create' && s.attempts > 1).length).toBeGreaterThanOrEqual(
      2,
    );
  });

  it('replans after not_found and re-reads after a conflict instead of retrying them', () => {
    expect(outcomes('get remembered ref')).toEqual(['CALL_TOOL_FAILED not_found']);
    expect(outcomes('update with stale version')).toEqual(['CALL_TOOL_FAILED conflict']);
    expect(report.steps.find((s) => s.step === 'update with stale version')?.attempts).toBe(1);
    const task = storyDb()
      .prepare('SELECT title FROM tasks WHERE title LIKE ?')
      .get('Fix the login timeout%') as { title: string };
    expect(task.title).toBe('Fix the login timeout (30 s)');
  });

  it('keeps searching through an outage: the breaker opens and the search is rerouted to the replica', () => {
    expect(outcomes('search during outage')).toEqual(['CALL_TRANSPORT', 'CALL_TRANSPORT', 'ok']);
    expect(report.steps.at(-3)?.note).toBe('rerouted to replica');
    expect(report.events.break).toBe(1);
    expect(report.events.reroute).toBe(1);
    expect(report.events.retry).toBeGreaterThanOrEqual(2);
  });

  it('finishes with two tasks in progress', () => {
    const doing = storyDb().prepare("SELECT COUNT(*) AS n FROM tasks WHERE status = 'doing'").get() as {
      n: number;
    };
    expect(doing.n).toBe(2);
  });
});
