/**
 * The {@link OAuthStore} on the board's SQLite database (tables `oauth_records`, `oauth_grants`,
 * `member_passwords`, `signin_links`, `secrets`).
 *
 * @packageDocumentation
 */
import type { Database } from 'better-sqlite3';
import type { SerialLock } from '../store/serial-lock.ts';
import type { GrantRecord, OAuthRecord, OAuthStore } from './oauth-store.ts';

interface RecordRow {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  account_id: string | null;
  expires_at: number | null;
  consumed_at: number | null;
}

interface GrantRow {
  grant_id: string;
  member_id: string;
  approved_by: string;
  client_id: string;
  client_name: string;
  scope: string;
  created_at: string;
  revoked_at: string | null;
}

/** Maps a stored record row to an {@link OAuthRecord}. */
export function toOAuthRecord(row: RecordRow): OAuthRecord {
  return {
    model: row.model,
    id: row.id,
    payload: row.payload,
    grantId: row.grant_id,
    uid: row.uid,
    userCode: row.user_code,
    accountId: row.account_id,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    consumedAt: row.consumed_at === null ? null : Number(row.consumed_at),
  };
}

/** Maps a stored grant row to a {@link GrantRecord}. */
export function toGrantRecord(row: GrantRow): GrantRecord {
  return {
    grantId: row.grant_id,
    memberId: row.member_id,
    approvedBy: row.approved_by,
    clientId: row.client_id,
    clientName: row.client_name,
    scope: row.scope,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

/**
 * Creates the SQLite OAuth store on a migrated board database; `lock` is the lock shared by every writer of the
 * connection, so that no statement lands inside another writer's open transaction.
 */
export function createSqliteOAuthStore(db: Database, options: { lock: SerialLock }): OAuthStore {
  const { lock } = options;
  const q = {
    upsert: db.prepare(
      `INSERT INTO oauth_records (model, id, payload, grant_id, uid, user_code, account_id, expires_at, consumed_at)
       VALUES (@model, @id, @payload, @grantId, @uid, @userCode, @accountId, @expiresAt, @consumedAt)
       ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
         uid = excluded.uid, user_code = excluded.user_code, account_id = excluded.account_id,
         expires_at = excluded.expires_at, consumed_at = excluded.consumed_at`,
    ),
    find: db.prepare('SELECT * FROM oauth_records WHERE model = ? AND id = ?'),
    byUid: db.prepare('SELECT * FROM oauth_records WHERE model = ? AND uid = ?'),
    byUserCode: db.prepare('SELECT * FROM oauth_records WHERE model = ? AND user_code = ?'),
    consume: db.prepare('UPDATE oauth_records SET consumed_at = ? WHERE model = ? AND id = ?'),
    destroy: db.prepare('DELETE FROM oauth_records WHERE model = ? AND id = ?'),
    destroyGrant: db.prepare('DELETE FROM oauth_records WHERE grant_id = ? AND model <> ?'),
    purge: db.prepare('DELETE FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at < ?'),
    insertGrant: db.prepare(
      `INSERT INTO oauth_grants (grant_id, member_id, approved_by, client_id, client_name, scope, created_at, revoked_at)
       VALUES (@grantId, @memberId, @approvedBy, @clientId, @clientName, @scope, @createdAt, @revokedAt)`,
    ),
    findGrant: db.prepare('SELECT * FROM oauth_grants WHERE grant_id = ?'),
    listGrants: db.prepare('SELECT * FROM oauth_grants ORDER BY created_at, grant_id'),
    revokeGrant: db.prepare(
      'UPDATE oauth_grants SET revoked_at = ? WHERE grant_id = ? AND revoked_at IS NULL',
    ),
    setPassword: db.prepare(
      `INSERT INTO member_passwords (member_id, hash, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (member_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`,
    ),
    getPassword: db.prepare('SELECT hash FROM member_passwords WHERE member_id = ?'),
    insertLink: db.prepare(
      'INSERT INTO signin_links (hash, member_id, expires_at, used_at) VALUES (?, ?, ?, ?)',
    ),
    useLink: db.prepare(
      `UPDATE signin_links SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ?
       RETURNING member_id`,
    ),
    getSecret: db.prepare('SELECT value FROM secrets WHERE name = ?'),
    insertSecret: db.prepare('INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING'),
  };
  const one = (row: unknown): OAuthRecord | undefined =>
    row === undefined ? undefined : toOAuthRecord(row as RecordRow);

  return {
    upsertRecord: (record) => lock.runSync(() => void q.upsert.run(record)),
    findRecord: (model, id) => lock.runSync(() => one(q.find.get(model, id))),
    findRecordByUid: (model, uid) => lock.runSync(() => one(q.byUid.get(model, uid))),
    findRecordByUserCode: (model, code) => lock.runSync(() => one(q.byUserCode.get(model, code))),
    consumeRecord: (model, id, at) => lock.runSync(() => void q.consume.run(at, model, id)),
    destroyRecord: (model, id) => lock.runSync(() => void q.destroy.run(model, id)),
    destroyGrantRecords: (grantId, keepModel) =>
      lock.runSync(() => void q.destroyGrant.run(grantId, keepModel ?? '')),
    purgeExpired: (now) => lock.runSync(() => q.purge.run(now).changes),
    insertGrant: (grant) => lock.runSync(() => void q.insertGrant.run(grant)),
    findGrant: (grantId) =>
      lock.runSync(() => {
        const row = q.findGrant.get(grantId) as GrantRow | undefined;
        return row === undefined ? undefined : toGrantRecord(row);
      }),
    listGrants: () => lock.runSync(() => (q.listGrants.all() as GrantRow[]).map(toGrantRecord)),
    revokeGrant: (grantId, at) => lock.runSync(() => q.revokeGrant.run(at, grantId).changes > 0),
    setPassword: (memberId, hash, at) => lock.runSync(() => void q.setPassword.run(memberId, hash, at)),
    getPassword: (memberId) =>
      lock.runSync(() => (q.getPassword.get(memberId) as { hash: string } | undefined)?.hash),
    insertSigninLink: (link) =>
      lock.runSync(() => void q.insertLink.run(link.hash, link.memberId, link.expiresAt, link.usedAt)),
    useSigninLink: (hash, at) =>
      lock.runSync(() => (q.useLink.get(at, hash, at) as { member_id: string } | undefined)?.member_id),
    secret: (name, create) =>
      lock.runSync(() => {
        q.insertSecret.run(name, create());
        return (q.getSecret.get(name) as { value: string }).value;
      }),
  };
}
