/**
 * The {@link OAuthStore} on the board's PostgreSQL database, for several instances sharing one authorization
 * server state.
 *
 * @packageDocumentation
 */
import type pg from 'pg';
import type { OAuthStore } from './oauth-store.ts';
import { toGrantRecord, toOAuthRecord } from './oauth-store.sqlite.ts';

/** Creates the PostgreSQL OAuth store on a migrated board database. */
export function createPgOAuthStore(pool: pg.Pool): OAuthStore {
  const rows = async (sql: string, params: unknown[]): Promise<unknown[]> =>
    (await pool.query(sql, params)).rows as unknown[];
  const record = async (sql: string, params: unknown[]) => {
    const [row] = await rows(sql, params);
    return row === undefined ? undefined : toOAuthRecord(row as Parameters<typeof toOAuthRecord>[0]);
  };
  return {
    async upsertRecord(r) {
      await pool.query(
        `INSERT INTO oauth_records (model, id, payload, grant_id, uid, user_code, account_id, expires_at, consumed_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (model, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
           uid = EXCLUDED.uid, user_code = EXCLUDED.user_code, account_id = EXCLUDED.account_id,
           expires_at = EXCLUDED.expires_at, consumed_at = EXCLUDED.consumed_at`,
        [r.model, r.id, r.payload, r.grantId, r.uid, r.userCode, r.accountId, r.expiresAt, r.consumedAt],
      );
    },
    findRecord: (model, id) =>
      record('SELECT * FROM oauth_records WHERE model = $1 AND id = $2', [model, id]),
    findRecordByUid: (model, uid) =>
      record('SELECT * FROM oauth_records WHERE model = $1 AND uid = $2', [model, uid]),
    findRecordByUserCode: (model, code) =>
      record('SELECT * FROM oauth_records WHERE model = $1 AND user_code = $2', [model, code]),
    async consumeRecord(model, id, at) {
      await pool.query('UPDATE oauth_records SET consumed_at = $1 WHERE model = $2 AND id = $3', [
        at,
        model,
        id,
      ]);
    },
    async destroyRecord(model, id) {
      await pool.query('DELETE FROM oauth_records WHERE model = $1 AND id = $2', [model, id]);
    },
    async destroyGrantRecords(grantId, keepModel) {
      await pool.query('DELETE FROM oauth_records WHERE grant_id = $1 AND model <> $2', [
        grantId,
        keepModel ?? '',
      ]);
    },
    async purgeExpired(now) {
      const result = await pool.query(
        'DELETE FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at < $1',
        [now],
      );
      return result.rowCount ?? 0;
    },
    async insertGrant(g) {
      await pool.query(
        `INSERT INTO oauth_grants (grant_id, member_id, approved_by, client_id, client_name, scope, created_at, revoked_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [g.grantId, g.memberId, g.approvedBy, g.clientId, g.clientName, g.scope, g.createdAt, g.revokedAt],
      );
    },
    async findGrant(grantId) {
      const [row] = await rows('SELECT * FROM oauth_grants WHERE grant_id = $1', [grantId]);
      return row === undefined ? undefined : toGrantRecord(row as Parameters<typeof toGrantRecord>[0]);
    },
    async listGrants() {
      const found = await rows('SELECT * FROM oauth_grants ORDER BY created_at, grant_id', []);
      return found.map((row) => toGrantRecord(row as Parameters<typeof toGrantRecord>[0]));
    },
    async revokeGrant(grantId, at) {
      const result = await pool.query(
        'UPDATE oauth_grants SET revoked_at = $1 WHERE grant_id = $2 AND revoked_at IS NULL',
        [at, grantId],
      );
      return (result.rowCount ?? 0) > 0;
    },
    async setPassword(memberId, hash, at) {
      await pool.query(
        `INSERT INTO member_passwords (member_id, hash, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (member_id) DO UPDATE SET hash = EXCLUDED.hash, updated_at = EXCLUDED.updated_at`,
        [memberId, hash, at],
      );
    },
    async getPassword(memberId) {
      const [row] = await rows('SELECT hash FROM member_passwords WHERE member_id = $1', [memberId]);
      return (row as { hash: string } | undefined)?.hash;
    },
    async insertSigninLink(link) {
      await pool.query(
        'INSERT INTO signin_links (hash, member_id, expires_at, used_at) VALUES ($1, $2, $3, $4)',
        [link.hash, link.memberId, link.expiresAt, link.usedAt],
      );
    },
    async useSigninLink(hash, at) {
      const [row] = await rows(
        `UPDATE signin_links SET used_at = $1 WHERE hash = $2 AND used_at IS NULL AND expires_at > $1
         RETURNING member_id`,
        [at, hash],
      );
      return (row as { member_id: string } | undefined)?.member_id;
    },
    async secret(name, create) {
      await pool.query('INSERT INTO secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
        name,
        create(),
      ]);
      const [row] = await rows('SELECT value FROM secrets WHERE name = $1', [name]);
      return (row as { value: string }).value;
    },
  };
}
