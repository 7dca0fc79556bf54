/**
 * The SQLite {@link BoardStore} on better-sqlite3. All SQL of the board's domain lives in this file.
 * better-sqlite3 is synchronous; a serial lock keeps one async transaction from interleaving with other calls.
 *
 * @packageDocumentation
 */
import type { Database, Statement } from 'better-sqlite3';
import type { Member } from '../domain/member.ts';
import type { Comment, HistoryEntry, Task } from '../domain/task.ts';
import type { BoardStore, BoardTx, TaskDetail, TaskPatch, TaskQuery } from './board-store.ts';
import {
  likePattern,
  TASK_PATCH_COLUMNS,
  toComment,
  toHistory,
  toMember,
  toTask,
  toToken,
  toTokenHolder,
  TOKEN_HOLDER_COLUMNS,
  type CommentRow,
  type HistoryRow,
  type MemberRow,
  type TaskRow,
  type TokenHolderRow,
  type TokenRow,
} from './store-rows.ts';
import { createSerialLock, type SerialLock } from './serial-lock.ts';
import { retryWhileBusy } from './busy-retry.ts';

/**
 * Creates the SQLite board store on an open, migrated database. `close()` closes the database unless
 * `ownsDatabase` is false (default true). Pass the `lock` shared by every writer of the same connection
 * (default: a lock of its own): a transaction stays open across `await`s, so nothing else may write meanwhile.
 */
export function createSqliteBoardStore(
  db: Database,
  options: { ownsDatabase?: boolean; lock?: SerialLock } = {},
): BoardStore {
  const lock = options.lock ?? createSerialLock();
  const cache = new Map<string, Statement>();
  const stmt = (sql: string): Statement => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  const getTask = (ref: string): Task | undefined => {
    const row = stmt('SELECT * FROM tasks WHERE ref = ?').get(ref) as TaskRow | undefined;
    return row ? toTask(row) : undefined;
  };
  const getMember = (id: string): Member | undefined => {
    const row = stmt('SELECT * FROM members WHERE id = ?').get(id) as MemberRow | undefined;
    return row ? toMember(row) : undefined;
  };
  const listComments = (ref: string): Comment[] =>
    (stmt('SELECT * FROM comments WHERE ref = ? ORDER BY id').all(ref) as CommentRow[]).map(toComment);
  const listHistory = (ref: string): HistoryEntry[] =>
    (stmt('SELECT * FROM history WHERE ref = ? ORDER BY id').all(ref) as HistoryRow[]).map(toHistory);
  // One read transaction: the three reads see one snapshot and take the database's read lock once (each
  // statement outside a transaction takes and drops it, a few system calls every time).
  const getTaskDetail = db.transaction((ref: string): TaskDetail | undefined => {
    const task = getTask(ref);
    return task && { task, comments: listComments(ref), history: listHistory(ref) };
  });
  // A locked database is waited out between turns of the lock, so other sections run meanwhile.
  const read = <T>(fn: () => T): Promise<T> => retryWhileBusy(() => lock.readSync(fn));
  /** A token with its member, found by the token's id or by its hash. */
  const tokenHolderWhere = (column: 'id' | 'hash', value: string) =>
    read(() => {
      const row = stmt(
        `SELECT ${TOKEN_HOLDER_COLUMNS} FROM tokens t JOIN members m ON m.id = t.member_id WHERE t.${column} = ?`,
      ).get(value) as TokenHolderRow | undefined;
      return row ? toTokenHolder(row) : undefined;
    });

  const tx: BoardTx = {
    getTask: (ref) => Promise.resolve(getTask(ref)),
    getMember: (id) => Promise.resolve(getMember(id)),
    nextTaskNumber() {
      const row = stmt("UPDATE counters SET value = value + 1 WHERE name = 'task' RETURNING value").get() as {
        value: number;
      };
      return Promise.resolve(row.value);
    },
    insertTask(task) {
      stmt(
        `INSERT INTO tasks (ref, title, description, status, assignee, labels, due, version, created_by, created_at, updated_at, seq)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        task.ref,
        task.title,
        task.description,
        task.status,
        task.assignee,
        JSON.stringify(task.labels),
        task.due,
        task.version,
        task.createdBy,
        task.createdAt,
        task.updatedAt,
        Number(task.ref.slice(2)),
      );
      return Promise.resolve();
    },
    updateTask(ref, expectedVersion, patch, at) {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const [key, column] of Object.entries(TASK_PATCH_COLUMNS) as [keyof TaskPatch, string][]) {
        if (!(key in patch)) continue;
        const value = patch[key];
        sets.push(`${column} = ?`);
        values.push(key === 'labels' ? JSON.stringify(value) : value);
      }
      sets.push('version = version + 1', 'updated_at = ?');
      values.push(at, ref, expectedVersion);
      // One statement per set of patched columns (at most 2^6), prepared once like every other.
      const result = stmt(`UPDATE tasks SET ${sets.join(', ')} WHERE ref = ? AND version = ?`).run(...values);
      return Promise.resolve(result.changes === 1);
    },
    deleteTask(ref) {
      stmt('DELETE FROM comments WHERE ref = ?').run(ref);
      return Promise.resolve(stmt('DELETE FROM tasks WHERE ref = ?').run(ref).changes === 1);
    },
    insertComment(comment) {
      const row = stmt(
        'INSERT INTO comments (ref, author_id, body, created_at) VALUES (?, ?, ?, ?) RETURNING id',
      ).get(comment.ref, comment.authorId, comment.body, comment.createdAt) as { id: number };
      return Promise.resolve({ ...comment, id: row.id });
    },
    insertHistory(entries) {
      const insert = stmt(
        'INSERT INTO history (ref, member_id, action, field, from_value, to_value, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      );
      for (const e of entries) insert.run(e.ref, e.memberId, e.action, e.field, e.from, e.to, e.at);
      return Promise.resolve();
    },
    insertMember(member) {
      stmt(
        'INSERT INTO members (id, name, kind, role, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(member.id, member.name, member.kind, member.role, member.createdAt, member.revokedAt);
      return Promise.resolve();
    },
    countActiveOwners() {
      const row = stmt(
        "SELECT COUNT(*) AS n FROM members WHERE role = 'owner' AND revoked_at IS NULL",
      ).get() as {
        n: number;
      };
      return Promise.resolve(row.n);
    },
    updateMember(id, patch) {
      let changes = 0;
      if (patch.role !== undefined)
        changes += stmt('UPDATE members SET role = ? WHERE id = ?').run(patch.role, id).changes;
      if (patch.revokedAt !== undefined)
        changes += stmt('UPDATE members SET revoked_at = ? WHERE id = ?').run(patch.revokedAt, id).changes;
      return Promise.resolve(changes > 0 || getMember(id) !== undefined);
    },
    insertToken(token) {
      stmt(
        'INSERT INTO tokens (id, member_id, hash, prefix, created_at, expires_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ).run(
        token.id,
        token.memberId,
        token.hash,
        token.prefix,
        token.createdAt,
        token.expiresAt,
        token.revokedAt,
      );
      return Promise.resolve();
    },
    revokeToken(id, at) {
      const result = stmt('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
      return Promise.resolve(result.changes === 1);
    },
  };

  return {
    getTask: (ref) => read(() => getTask(ref)),
    searchTasks: (query: TaskQuery) =>
      read(() => {
        const where: string[] = [];
        const params: unknown[] = [];
        if (query.text !== undefined && query.text !== '') {
          where.push("(title LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')");
          params.push(likePattern(query.text), likePattern(query.text));
        }
        if (query.status !== undefined) {
          where.push('status = ?');
          params.push(query.status);
        }
        if (query.assignee === null) where.push('assignee IS NULL');
        else if (query.assignee !== undefined) {
          where.push('assignee = ?');
          params.push(query.assignee);
        }
        if (query.label !== undefined) {
          where.push('EXISTS (SELECT 1 FROM json_each(tasks.labels) WHERE json_each.value = ?)');
          params.push(query.label);
        }
        const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
        const total = (
          db.prepare(`SELECT COUNT(*) AS n FROM tasks ${clause}`).get(...params) as { n: number }
        ).n;
        const rows = db
          .prepare(`SELECT * FROM tasks ${clause} ORDER BY seq LIMIT ? OFFSET ?`)
          .all(...params, query.limit, query.offset) as TaskRow[];
        return { tasks: rows.map(toTask), total };
      }),
    countTasks: () => read(() => (stmt('SELECT COUNT(*) AS n FROM tasks').get() as { n: number }).n),
    getTaskDetail: (ref) => read(() => getTaskDetail(ref)),
    listComments: (ref) => read(() => listComments(ref)),
    listHistory: (ref) => read(() => listHistory(ref)),
    getMember: (id) => read(() => getMember(id)),
    listMembers: () =>
      read(() => (stmt('SELECT * FROM members ORDER BY created_at, id').all() as MemberRow[]).map(toMember)),
    findTokenByHash: (hash) =>
      read(() => {
        const row = stmt('SELECT * FROM tokens WHERE hash = ?').get(hash) as TokenRow | undefined;
        return row ? toToken(row) : undefined;
      }),
    findTokenHolder: (tokenId) => tokenHolderWhere('id', tokenId),
    findTokenHolderByHash: (hash) => tokenHolderWhere('hash', hash),
    listTokens: () =>
      read(() => (stmt('SELECT * FROM tokens ORDER BY created_at, id').all() as TokenRow[]).map(toToken)),
    transaction<T>(work: (tx: BoardTx) => Promise<T>, signal?: AbortSignal): Promise<T> {
      const attempt = () =>
        lock.run(async () => {
          signal?.throwIfAborted();
          // Inside a section that already opened a transaction (an idempotent write recording its result in
          // the same transaction), this one is a savepoint of it.
          const nested = db.inTransaction;
          db.exec(nested ? 'SAVEPOINT board_tx' : 'BEGIN IMMEDIATE');
          try {
            const result = await work(tx);
            signal?.throwIfAborted();
            db.exec(nested ? 'RELEASE board_tx' : 'COMMIT');
            return result;
          } catch (error) {
            if (nested) db.exec('ROLLBACK TO board_tx; RELEASE board_tx');
            else if (db.inTransaction) db.exec('ROLLBACK');
            throw error;
          }
        });
      // A database locked by another process fails BEGIN IMMEDIATE (or, rarely, COMMIT) with nothing
      // committed; the whole attempt is repeated outside the lock, bounded by the busy budget and `signal`.
      return retryWhileBusy(attempt, signal === undefined ? {} : { signal });
    },
    close() {
      return lock.run(() => {
        if (options.ownsDatabase !== false && db.open) db.close();
        return Promise.resolve();
      });
    },
  };
}
