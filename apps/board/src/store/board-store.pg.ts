/**
 * The PostgreSQL {@link BoardStore} on `pg`, for several board instances sharing one database. All SQL of the
 * board's domain for PostgreSQL lives in this file. A transaction runs on one pooled client; the task counter's
 * row lock serialises ref allocation between instances. Inside a keyed call's ambient transaction (see
 * `pg-ambient-transaction.ts`) transactions become savepoints of it and reads see its uncommitted writes.
 *
 * @packageDocumentation
 */
import type { Pool, PoolClient } from 'pg';
import type { PgAmbientTransaction } from '../kit/pg-ambient-transaction.ts';
import type { Member } from '../domain/member.ts';
import type { Task } from '../domain/task.ts';
import type { BoardStore, BoardTx, TaskPatch, TaskQuery } from './board-store.ts';
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

type Queryable = Pick<Pool | PoolClient, 'query'>;

async function getTask(db: Queryable, ref: string): Promise<Task | undefined> {
  const { rows } = await db.query<TaskRow>('SELECT * FROM tasks WHERE ref = $1', [ref]);
  return rows[0] ? toTask(rows[0]) : undefined;
}

async function getMember(db: Queryable, id: string): Promise<Member | undefined> {
  const { rows } = await db.query<MemberRow>('SELECT * FROM members WHERE id = $1', [id]);
  return rows[0] ? toMember(rows[0]) : undefined;
}

function txOn(client: PoolClient): BoardTx {
  return {
    getTask: (ref) => getTask(client, ref),
    getMember: (id) => getMember(client, id),
    async nextTaskNumber() {
      const { rows } = await client.query<{ value: string }>(
        "UPDATE counters SET value = value + 1 WHERE name = 'task' RETURNING value",
      );
      return Number(rows[0]?.value);
    },
    async insertTask(task) {
      await client.query(
        `INSERT INTO tasks (ref, title, description, status, assignee, labels, due, version, created_by, created_at, updated_at, seq)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
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
        ],
      );
    },
    async updateTask(ref, expectedVersion, patch, at) {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const [key, column] of Object.entries(TASK_PATCH_COLUMNS) as [keyof TaskPatch, string][]) {
        if (!(key in patch)) continue;
        values.push(key === 'labels' ? JSON.stringify(patch[key]) : patch[key]);
        sets.push(`${column} = $${values.length}`);
      }
      values.push(at, ref, expectedVersion);
      const n = values.length;
      const result = await client.query(
        `UPDATE tasks SET ${[...sets, 'version = version + 1', `updated_at = $${n - 2}`].join(', ')}
         WHERE ref = $${n - 1} AND version = $${n}`,
        values,
      );
      return result.rowCount === 1;
    },
    async deleteTask(ref) {
      await client.query('DELETE FROM comments WHERE ref = $1', [ref]);
      return (await client.query('DELETE FROM tasks WHERE ref = $1', [ref])).rowCount === 1;
    },
    async insertComment(comment) {
      const { rows } = await client.query<{ id: string }>(
        'INSERT INTO comments (ref, author_id, body, created_at) VALUES ($1, $2, $3, $4) RETURNING id',
        [comment.ref, comment.authorId, comment.body, comment.createdAt],
      );
      return { ...comment, id: Number(rows[0]?.id) };
    },
    async insertHistory(entries) {
      for (const e of entries) {
        await client.query(
          'INSERT INTO history (ref, member_id, action, field, from_value, to_value, at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [e.ref, e.memberId, e.action, e.field, e.from, e.to, e.at],
        );
      }
    },
    async insertMember(member) {
      await client.query(
        'INSERT INTO members (id, name, kind, role, created_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6)',
        [member.id, member.name, member.kind, member.role, member.createdAt, member.revokedAt],
      );
    },
    async countActiveOwners() {
      const { rows } = await client.query<{ n: string }>(
        "SELECT COUNT(*) AS n FROM members WHERE role = 'owner' AND revoked_at IS NULL",
      );
      return Number(rows[0]?.n ?? 0);
    },
    async updateMember(id, patch) {
      if (patch.role !== undefined)
        await client.query('UPDATE members SET role = $1 WHERE id = $2', [patch.role, id]);
      if (patch.revokedAt !== undefined) {
        await client.query('UPDATE members SET revoked_at = $1 WHERE id = $2', [patch.revokedAt, id]);
      }
      return (await getMember(client, id)) !== undefined;
    },
    async insertToken(token) {
      await client.query(
        'INSERT INTO tokens (id, member_id, hash, prefix, created_at, expires_at, revoked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [
          token.id,
          token.memberId,
          token.hash,
          token.prefix,
          token.createdAt,
          token.expiresAt,
          token.revokedAt,
        ],
      );
    },
    async revokeToken(id, at) {
      const result = await client.query(
        'UPDATE tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL',
        [at, id],
      );
      return result.rowCount === 1;
    },
  };
}

/**
 * Creates the PostgreSQL board store on `pool` (migrated with `migratePg`). `close()` ends the pool unless
 * `ownsPool` is false (default true).
 */
export function createPgBoardStore(
  pool: Pool,
  options: { ownsPool?: boolean; ambient?: PgAmbientTransaction } = {},
): BoardStore {
  const db = (): Queryable => options.ambient?.current() ?? pool;
  /** A token with its member, found by the token's id or by its hash. */
  const tokenHolderWhere = async (column: 'id' | 'hash', value: string) => {
    const { rows } = await db().query<TokenHolderRow>(
      `SELECT ${TOKEN_HOLDER_COLUMNS} FROM tokens t JOIN members m ON m.id = t.member_id WHERE t.${column} = $1`,
      [value],
    );
    return rows[0] ? toTokenHolder(rows[0]) : undefined;
  };
  const listComments = async (ref: string) => {
    const { rows } = await db().query<CommentRow>('SELECT * FROM comments WHERE ref = $1 ORDER BY id', [ref]);
    return rows.map(toComment);
  };
  const listHistory = async (ref: string) => {
    const { rows } = await db().query<HistoryRow>('SELECT * FROM history WHERE ref = $1 ORDER BY id', [ref]);
    return rows.map(toHistory);
  };
  return {
    getTask: (ref) => getTask(db(), ref),
    async searchTasks(query: TaskQuery) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (query.text !== undefined && query.text !== '') {
        params.push(likePattern(query.text));
        where.push(
          `(title ILIKE $${params.length} ESCAPE '\\' OR description ILIKE $${params.length} ESCAPE '\\')`,
        );
      }
      if (query.status !== undefined) {
        params.push(query.status);
        where.push(`status = $${params.length}`);
      }
      if (query.assignee === null) where.push('assignee IS NULL');
      else if (query.assignee !== undefined) {
        params.push(query.assignee);
        where.push(`assignee = $${params.length}`);
      }
      if (query.label !== undefined) {
        params.push(query.label);
        where.push(`labels ? $${params.length}`);
      }
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const count = await db().query<{ n: string }>(`SELECT COUNT(*) AS n FROM tasks ${clause}`, params);
      const page = await db().query<TaskRow>(
        `SELECT * FROM tasks ${clause} ORDER BY seq LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, query.limit, query.offset],
      );
      return { tasks: page.rows.map(toTask), total: Number(count.rows[0]?.n ?? 0) };
    },
    async countTasks() {
      const { rows } = await db().query<{ n: string }>('SELECT COUNT(*) AS n FROM tasks');
      return Number(rows[0]?.n ?? 0);
    },
    async getTaskDetail(ref) {
      const task = await getTask(db(), ref);
      if (task === undefined) return undefined;
      const [comments, history] = await Promise.all([listComments(ref), listHistory(ref)]);
      return { task, comments, history };
    },
    listComments,
    listHistory,
    getMember: (id) => getMember(db(), id),
    async listMembers() {
      const { rows } = await db().query<MemberRow>('SELECT * FROM members ORDER BY created_at, id');
      return rows.map(toMember);
    },
    async findTokenByHash(hash) {
      const { rows } = await db().query<TokenRow>('SELECT * FROM tokens WHERE hash = $1', [hash]);
      return rows[0] ? toToken(rows[0]) : undefined;
    },
    findTokenHolder: (tokenId) => tokenHolderWhere('id', tokenId),
    findTokenHolderByHash: (hash) => tokenHolderWhere('hash', hash),
    async listTokens() {
      const { rows } = await db().query<TokenRow>('SELECT * FROM tokens ORDER BY created_at, id');
      return rows.map(toToken);
    },
    async transaction<T>(work: (tx: BoardTx) => Promise<T>, signal?: AbortSignal): Promise<T> {
      signal?.throwIfAborted();
      const outer = options.ambient?.current();
      if (outer !== undefined) return savepoint(outer, work, signal);
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(txOn(client));
        signal?.throwIfAborted();
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      if (options.ownsPool !== false) await pool.end();
    },
  };
}

/** Runs `work` inside a savepoint of the ambient transaction on `client` (rolled back to on failure). */
async function savepoint<T>(
  client: PoolClient,
  work: (tx: BoardTx) => Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T> {
  await client.query('SAVEPOINT board_tx');
  try {
    const result = await work(txOn(client));
    signal?.throwIfAborted();
    await client.query('RELEASE SAVEPOINT board_tx');
    return result;
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT board_tx').catch(() => undefined);
    throw error;
  }
}
