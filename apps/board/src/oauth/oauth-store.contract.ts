/**
 * One contract every {@link OAuthStore} passes (SQLite and PostgreSQL), with the board store it sits beside.
 */
import { describe, expect, it } from 'vitest';
import type { BoardStore } from '../store/board-store.ts';
import type { OAuthStore } from './oauth-store.ts';

/** Registers the contract tests for a store built by `open`. */
export function describeOAuthStoreContract(
  name: string,
  open: () => Promise<{ store: OAuthStore; board: BoardStore }>,
): void {
  describe(`OAuthStore contract (${name})`, () => {
    const record = (over: Partial<Parameters<OAuthStore['upsertRecord']>[0]> = {}) => ({
      model: 'AccessToken',
      id: 'at1',
      payload: '{"jti":"at1"}',
      grantId: 'g1',
      uid: null,
      userCode: null,
      accountId: 'm_1',
      expiresAt: 2_000_000_000,
      consumedAt: null,
      ...over,
    });

    it('upserts, finds, consumes and destroys records by model and id, uid and grant', async () => {
      const { store } = await open();
      await store.upsertRecord(record());
      await store.upsertRecord(record({ payload: '{"jti":"at1","v":2}' }));
      await store.upsertRecord(record({ model: 'RefreshToken', id: 'rt1' }));
      await store.upsertRecord(record({ model: 'Interaction', id: 'i1', uid: 'u1', grantId: null }));
      expect((await store.findRecord('AccessToken', 'at1'))?.payload).toBe('{"jti":"at1","v":2}');
      expect(await store.findRecord('RefreshToken', 'at1')).toBeUndefined();
      expect((await store.findRecordByUid('Interaction', 'u1'))?.id).toBe('i1');
      await store.consumeRecord('RefreshToken', 'rt1', 1234);
      expect((await store.findRecord('RefreshToken', 'rt1'))?.consumedAt).toBe(1234);
      await store.destroyGrantRecords('g1', 'AccessToken');
      expect(await store.findRecord('RefreshToken', 'rt1')).toBeUndefined();
      expect(await store.findRecord('AccessToken', 'at1')).toBeDefined();
      await store.destroyGrantRecords('g1');
      expect(await store.findRecord('AccessToken', 'at1')).toBeUndefined();
      await store.destroyRecord('Interaction', 'i1');
      expect(await store.findRecordByUid('Interaction', 'u1')).toBeUndefined();
    });

    it('purges only records that expired before the given time', async () => {
      const { store } = await open();
      await store.upsertRecord(record({ id: 'old', expiresAt: 100 }));
      await store.upsertRecord(record({ id: 'new', expiresAt: 300 }));
      await store.upsertRecord(record({ id: 'never', expiresAt: null }));
      expect(await store.purgeExpired(200)).toBe(1);
      expect(await store.findRecord('AccessToken', 'old')).toBeUndefined();
      expect(await store.findRecord('AccessToken', 'new')).toBeDefined();
    });

    it('keeps grants, passwords, one-time links and secrets', async () => {
      const { store, board } = await open();
      const at = '2026-01-01T00:00:00.000Z';
      await board.transaction((tx) =>
        tx.insertMember({
          id: 'm_1',
          name: 'Ada',
          kind: 'person',
          role: 'owner',
          createdAt: at,
          revokedAt: null,
        }),
      );
      const grant = {
        grantId: 'g1',
        memberId: 'm_1',
        approvedBy: 'm_1',
        clientId: 'c1',
        clientName: 'App',
        scope: 'board:read',
        createdAt: at,
        revokedAt: null,
      };
      await store.insertGrant(grant);
      expect(await store.findGrant('g1')).toEqual(grant);
      expect(await store.revokeGrant('g1', at)).toBe(true);
      expect(await store.revokeGrant('g1', at)).toBe(false);
      expect((await store.listGrants())[0]?.revokedAt).toBe(at);

      await store.setPassword('m_1', 'hash-1', at);
      await store.setPassword('m_1', 'hash-2', at);
      expect(await store.getPassword('m_1')).toBe('hash-2');

      await store.insertSigninLink({
        hash: 'h',
        memberId: 'm_1',
        expiresAt: '2026-01-01T00:10:00.000Z',
        usedAt: null,
      });
      expect(await store.useSigninLink('h', '2026-01-01T00:20:00.000Z')).toBeUndefined(); // expired
      await store.insertSigninLink({
        hash: 'h2',
        memberId: 'm_1',
        expiresAt: '2026-01-01T00:10:00.000Z',
        usedAt: null,
      });
      expect(await store.useSigninLink('h2', '2026-01-01T00:05:00.000Z')).toBe('m_1');
      expect(await store.useSigninLink('h2', '2026-01-01T00:06:00.000Z')).toBeUndefined(); // used

      expect(await store.secret('k', () => 'first')).toBe('first');
      expect(await store.secret('k', () => 'second')).toBe('first');
    });
  });
}
