/**
 * The board database schema as an explicit, versioned list of migrations. {@link migrate} is called by whoever
 * opens the database (the board server, the CLI, tests); no constructor ever migrates.
 *
 * @packageDocumentation
 */
import type { Database } from 'better-sqlite3';

/** One schema step; `version` numbers are consecutive from 1 and never change once released. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Every migration of the board database, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
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
      CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
      INSERT INTO counters (name, value) VALUES ('task', 0);
      CREATE TABLE tasks (
        ref TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        description TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('todo', 'doing', 'review', 'done')),
        assignee TEXT REFERENCES members(id),
        labels TEXT NOT NULL,
        due TEXT,
        version INTEGER NOT NULL,
        created_by TEXT NOT NULL REFERENCES members(id),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        seq INTEGER NOT NULL UNIQUE
      );
      CREATE INDEX tasks_status ON tasks(status);
      CREATE INDEX tasks_assignee ON tasks(assignee);
      CREATE TABLE comments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        ref TEXT NOT NULL REFERENCES tasks(ref) ON DELETE CASCADE,
        author_id TEXT NOT NULL REFERENCES members(id),
        body TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX comments_ref ON comments(ref);
      CREATE TABLE history (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
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
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (member_id, key)
      );
      CREATE INDEX idempotency_expires ON idempotency(expires_at);
      CREATE TABLE call_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
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
        key TEXT PRIMARY KEY,
        points INTEGER NOT NULL DEFAULT 0,
        expire INTEGER
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
        created_at INTEGER NOT NULL,
        last_updated_at INTEGER NOT NULL,
        ttl_ms INTEGER NOT NULL,
        poll_interval_ms INTEGER NOT NULL,
        result TEXT,
        error TEXT,
        input_requests TEXT NOT NULL,
        input_responses TEXT NOT NULL,
        cancel_requested INTEGER NOT NULL,
        instance_id TEXT NOT NULL,
        lease_until INTEGER NOT NULL,
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
      ALTER TABLE idempotency ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0;
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
        expires_at INTEGER,
        consumed_at INTEGER,
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
 * Brings `db` up to the newest schema, applying each missing migration in its own transaction.
 * Returns the versions applied (empty when the schema was current).
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  const applied = new Set(
    db
      .prepare('SELECT version FROM schema_migrations')
      .all()
      .map((row) => (row as { version: number }).version),
  );
  const done: number[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    })();
    done.push(migration.version);
  }
  return done;
}

/** The versions of `migrations` not applied to `db` (all of them when it was never migrated). */
export function pendingMigrations(db: Database, migrations: readonly Migration[] = MIGRATIONS): number[] {
  const table = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (table === undefined) return migrations.map((m) => m.version);
  const applied = new Set(
    db
      .prepare('SELECT version FROM schema_migrations')
      .all()
      .map((row) => (row as { version: number }).version),
  );
  return migrations.filter((m) => !applied.has(m.version)).map((m) => m.version);
}
