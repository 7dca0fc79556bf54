/**
 * The books of a scale run: what the database holds against what the clients were told.
 */
import pg from 'pg';
import type { LedgerEntry, LoadLedger } from './scale-load.ts';

/** What the books show. */
export interface Books {
  /** Acknowledged writes by kind. */
  readonly acknowledged: { create: number; update: number; comment: number; total: number };
  /** Writes whose callers could not tell whether they happened (client `ambiguous` / transport). */
  readonly unknown: number;
  /** Writes refused with a failure that said nothing changed. */
  readonly failed: number;
  /** Acknowledged writes missing from the database. */
  readonly lost: LedgerEntry[];
  /** Writes found more than once (a key done twice, a comment or title twice). */
  readonly duplicated: string[];
  /** Writes refused as "nothing changed" that the database holds anyway. */
  readonly changedAfterAll: LedgerEntry[];
  readonly reads: { ok: number; failed: number };
  /** Answers received by the clients, and how many of their correlation ids the call log holds. */
  readonly answers: number;
  readonly answersLogged: number;
  readonly callLogRows: number;
}

async function counts(client: pg.Client, sql: string): Promise<Map<string, number>> {
  const { rows } = await client.query<{ mark: string; n: string }>(sql);
  return new Map(rows.map((r) => [r.mark, Number(r.n)]));
}

/** Reads the database behind `databaseUrl` and checks every write of `ledger` against it. */
export async function checkBooks(databaseUrl: string, ledger: LoadLedger): Promise<Books> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // A create is known by its `created` history entry (its title may have been edited since).
    const tasks = await counts(
      client,
      "SELECT substring(to_value from 6) AS mark, COUNT(*) AS n FROM history WHERE action = 'created' AND to_value LIKE 'Load %' GROUP BY to_value",
    );
    const { rows: created } = await client.query<{ mark: string; ref: string }>(
      "SELECT substring(h.to_value from 6) AS mark, h.ref FROM history h JOIN tasks t ON t.ref = h.ref WHERE h.action = 'created' AND h.to_value LIKE 'Load %'",
    );
    const refs = new Map(created.map((r) => [r.mark, r.ref]));
    const titles = await counts(
      client,
      "SELECT to_value AS mark, COUNT(*) AS n FROM history WHERE field = 'title' AND to_value LIKE 'Edited %' GROUP BY to_value",
    );
    const comments = await counts(client, 'SELECT body AS mark, COUNT(*) AS n FROM comments GROUP BY body');
    const held = (entry: LedgerEntry): number =>
      (entry.kind === 'create' ? tasks : entry.kind === 'update' ? titles : comments).get(entry.mark) ?? 0;

    const lost: LedgerEntry[] = [];
    const changedAfterAll: LedgerEntry[] = [];
    const duplicated: string[] = [];
    for (const entry of ledger.writes) {
      const n = held(entry);
      if (n > 1) duplicated.push(`${entry.kind} ${entry.mark} x${String(n)}`);
      if (entry.outcome === 'ok' && n === 0) lost.push(entry);
      if (entry.outcome === 'ok' && entry.kind === 'create' && refs.get(entry.mark) !== entry.ref)
        lost.push(entry);
      if (entry.outcome === 'failed' && n > 0) changedAfterAll.push(entry);
    }
    for (const map of [tasks, titles, comments])
      for (const [mark, n] of map)
        if (n > 1 && !duplicated.some((d) => d.includes(mark))) duplicated.push(`${mark} x${String(n)}`);

    const ids = [...new Set(ledger.correlationIds)];
    const { rows: logged } = await client.query<{ n: string }>(
      'SELECT COUNT(DISTINCT correlation_id) AS n FROM call_log WHERE correlation_id = ANY($1)',
      [ids],
    );
    const { rows: total } = await client.query<{ n: string }>('SELECT COUNT(*) AS n FROM call_log');
    const ok = (kind: LedgerEntry['kind']): number =>
      ledger.writes.filter((w) => w.kind === kind && w.outcome === 'ok').length;
    const acknowledged = { create: ok('create'), update: ok('update'), comment: ok('comment'), total: 0 };
    acknowledged.total = acknowledged.create + acknowledged.update + acknowledged.comment;
    return {
      acknowledged,
      unknown: ledger.writes.filter((w) => w.outcome === 'unknown').length,
      failed: ledger.writes.filter((w) => w.outcome === 'failed').length,
      lost,
      duplicated,
      changedAfterAll,
      reads: ledger.reads,
      answers: ids.length,
      answersLogged: Number(logged[0]?.n ?? 0),
      callLogRows: Number(total[0]?.n ?? 0),
    };
  } finally {
    await client.end();
  }
}
