/**
 * The board's PostgreSQL schema as an explicit, versioned list of migrations, mirroring the SQLite schema of the
 * domain tables. {@link migratePg} is run by whoever opens the database, never by a constructor; an advisory
 * lock keeps several instances from migrating at once.
 *
 * @packageDocumentation
 */
import type { Pool } from 'pg';
import type { Migration } from './migrations.sqlite.ts';

/** Advisory-lock key held while migrating (any fixed number unique to the board). */
const MIGRATION_LOCK_KEY = 7_262_021;

/** Every PostgreSQL migration of the board, oldest first. Timestamps are ISO 8601 text, as in the domain. */
export const PG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'members, tasks, comments, history, tokens',
    sql: `
      CREATE TABLE members (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('person', 'assistant')),
        role TEXT NOT NULL CHECK (role IN ('owner', 'maintainer', 'contributor', 'viewer')),
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE TABLE counters (name TEXT PRIMARY KEY, value BIGINT NOT NULL);
      INSERT INTO counters (name, value) VALUES ('task', 0);
      CREATE TABLE tasks (
        ref TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('todo', 'doing', 'review', 'done')),
        assignee TEXT REFERENCES members(id),
        labels JSONB NOT NULL,
        due TEXT,
        version INTEGER NOT NULL,
        created_by TEXT NOT NULL REFERENCES members(id),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        seq BIGINT NOT NULL UNIQUE
      );
      CREATE INDEX tasks_status ON tasks(status);
      CREATE INDEX tasks_assignee ON tasks(assignee);
      CREATE TABLE comments (
        id BIGSERIAL PRIMARY KEY,
        ref TEXT NOT NULL REFERENCES tasks(ref) ON DELETE CASCADE,
        author_id TEXT NOT NULL REFERENCES members(id),
        body TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX comments_ref ON comments(ref);
      CREATE TABLE history (
        id BIGSERIAL PRIMARY KEY,
        ref TEXT NOT NULL,
        member_id TEXT NOT NULL,
        action TEXT NOT NULL,
        field TEXT,
        from_value TEXT,
        to_value TEXT,
        at TEXT NOT NULL
      );
      CREATE INDEX history_ref ON history(ref);
      CREATE TABLE tokens (
        id TEXT PRIMARY KEY,
        member_id TEXT NOT NULL REFERENCES members(id),
        hash TEXT NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        revoked_at TEXT
      );
    `,
  },
  {
    version: 2,
    name: 'idempotency records, call log, rate limits',
    sql: `
      CREATE TABLE idempotency (
        member_id TEXT NOT NULL,
        key TEXT NOT NULL,
        tool TEXT NOT NULL,
        args_hash TEXT NOT NULL,
        result TEXT,
        expires_at BIGINT NOT NULL,
        PRIMARY KEY (member_id, key)
      );
      CREATE INDEX idempotency_expires ON idempotency(expires_at);
      CREATE TABLE call_log (
        id BIGSERIAL PRIMARY KEY,
        at TEXT NOT NULL,
        member_id TEXT,
        tool TEXT NOT NULL,
        outcome TEXT NOT NULL,
        code TEXT,
        duration_ms INTEGER NOT NULL,
        correlation_id TEXT NOT NULL
      );
      CREATE INDEX call_log_at ON call_log(at);
      CREATE TABLE rate_limits (
        key VARCHAR(255) PRIMARY KEY,
        points INTEGER NOT NULL DEFAULT 0,
        expire BIGINT
      );
    `,
  },
  {
    version: 3,
    name: 'tasks-extension tasks',
    sql: `
      CREATE TABLE mcp_tasks (
        task_id TEXT PRIMARY KEY,
        owner_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('working', 'input_required', 'completed', 'failed', 'cancelled')),
        status_message TEXT,
        created_at BIGINT NOT NULL,
        last_updated_at BIGINT NOT NULL,
        ttl_ms BIGINT NOT NULL,
        poll_interval_ms INTEGER NOT NULL,
        result JSONB,
        error JSONB,
        input_requests JSONB NOT NULL,
        input_responses JSONB NOT NULL,
        cancel_requested BOOLEAN NOT NULL,
        instance_id TEXT NOT NULL,
        lease_until BIGINT NOT NULL,
        version INTEGER NOT NULL
      );
      CREATE INDEX mcp_tasks_lease ON mcp_tasks(status, lease_until);
      CREATE INDEX mcp_tasks_instance ON mcp_tasks(instance_id, status);
      CREATE INDEX mcp_tasks_created ON mcp_tasks(created_at);
    `,
  },
  {
    version: 4,
    name: 'idempotency claim leases',
    sql: `
      ALTER TABLE idempotency ADD COLUMN lease_id TEXT;
      ALTER TABLE idempotency ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 5,
    name: 'oauth records, grants, passwords, sign-in links, secrets',
    sql: `
      CREATE TABLE oauth_records (
        model TEXT NOT NULL,
        id TEXT NOT NULL,
        payload TEXT NOT NULL,
        grant_id TEXT,
        uid TEXT,
        user_code TEXT,
        account_id TEXT,
        expires_at BIGINT,
        consumed_at BIGINT,
        PRIMARY KEY (model, id)
      );
      CREATE INDEX oauth_records_grant ON oauth_records(grant_id);
      CREATE INDEX oauth_records_uid ON oauth_records(model, uid);
      CREATE INDEX oauth_records_expires ON oauth_records(expires_at);
      CREATE TABLE oauth_grants (
        grant_id TEXT PRIMARY KEY,
        member_id TEXT NOT NULL REFERENCES members(id),
        approved_by TEXT NOT NULL REFERENCES members(id),
        client_id TEXT NOT NULL,
        client_name TEXT NOT NULL,
        scope TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX oauth_grants_member ON oauth_grants(member_id);
      CREATE TABLE member_passwords (
        member_id TEXT PRIMARY KEY REFERENCES members(id),
        hash TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE signin_links (
        hash TEXT PRIMARY KEY,
        member_id TEXT NOT NULL REFERENCES members(id),
        expires_at TEXT NOT NULL,
        used_at TEXT
      );
      CREATE TABLE secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
];

/**
 * Brings the database behind `pool` up to the newest schema, each migration in its own transaction, under an
 * advisory lock. Returns the versions applied (empty when the schema was current).
 */
export async function migratePg(
  pool: Pool,
  migrations: readonly Migration[] = PG_MIGRATIONS,
): Promise<number[]> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    const done: number[] = [];
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          new Date().toISOString(),
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      done.push(migration.version);
    }
    return done;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    client.release();
  }
}

/**
 * The versions of `migrations` not applied to the database behind `pool` (all of them when it was never
 * migrated). Rejects when the database cannot be reached.
 */
export async function pendingPgMigrations(
  pool: Pool,
  migrations: readonly Migration[] = PG_MIGRATIONS,
): Promise<number[]> {
  const { rows: tables } = await pool.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (tables[0]?.present !== true) return migrations.map((m) => m.version);
  const { rows } = await pool.query<{ version: number }>('SELECT version FROM schema_migrations');
  const applied = new Set(rows.map((r) => r.version));
  return migrations.filter((m) => !applied.has(m.version)).map((m) => m.version);
}
