/**
 * The grants people approved on the consent page: listing them, and revoking one so that its access tokens are
 * refused on their next use and its refresh tokens no longer work.
 *
 * @packageDocumentation
 */
import type { GrantRecord, OAuthStore } from './oauth-store.ts';

/** Thrown by {@link OAuthGrants.revoke} when no active grant has the id; `code` is `GRANT_NOT_FOUND`. */
export class UnknownGrantError extends Error {
  override readonly name = 'UnknownGrantError';
  readonly code = 'GRANT_NOT_FOUND';
  constructor(grantId: string) {
    super(
      `No active grant has id ${JSON.stringify(grantId)}. Run "recourse-board grants list" to see grants; nothing was changed.`,
    );
  }
}

/** Creates the grant service over the OAuth store. */
export function createOAuthGrants(store: OAuthStore, options: { now?: () => Date } = {}) {
  const now = options.now ?? (() => new Date());
  return {
    /** Every grant, oldest first; revoked ones too unless `activeOnly`. */
    async list(activeOnly = false): Promise<GrantRecord[]> {
      const grants = await store.listGrants();
      return activeOnly ? grants.filter((g) => g.revokedAt === null) : grants;
    },

    /**
     * Revokes a grant: marks it revoked (its access tokens are refused from their next use, as `revoked`) and
     * deletes its refresh tokens, codes and the library's grant record, so a refresh fails. Throws
     * {@link UnknownGrantError}.
     */
    async revoke(grantId: string): Promise<GrantRecord> {
      const grant = await store.findGrant(grantId);
      if (grant === undefined || grant.revokedAt !== null) throw new UnknownGrantError(grantId);
      const at = now().toISOString();
      await store.revokeGrant(grantId, at);
      await store.destroyGrantRecords(grantId, 'AccessToken');
      return { ...grant, revokedAt: at };
    },

    /** Revokes every active grant that acts as, or was approved by, `memberId`; returns how many. */
    async revokeMember(memberId: string): Promise<number> {
      const grants = (await store.listGrants()).filter(
        (g) => g.revokedAt === null && (g.memberId === memberId || g.approvedBy === memberId),
      );
      for (const grant of grants) await this.revoke(grant.grantId);
      return grants.length;
    },
  };
}

/** The service returned by {@link createOAuthGrants}. */
export type OAuthGrants = ReturnType<typeof createOAuthGrants>;
