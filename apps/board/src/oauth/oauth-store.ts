/**
 * The narrow storage interface below the board's OAuth authorization server: the records `oidc-provider` keeps
 * (sessions, interactions, codes, tokens, clients, grants), which member each grant acts as, members' password
 * hashes, one-time sign-in links and the server's own secrets (cookie and signing keys). SQLite:
 * `oauth-store.sqlite.ts`; PostgreSQL: `oauth-store.pg.ts`. The services in this folder hold every rule.
 *
 * @packageDocumentation
 */

/** One `oidc-provider` record as stored. `expiresAt` and `consumedAt` are epoch seconds. */
export interface OAuthRecord {
  readonly model: string;
  readonly id: string;
  /** The library's payload, as JSON text. */
  readonly payload: string;
  readonly grantId: string | null;
  readonly uid: string | null;
  readonly userCode: string | null;
  readonly accountId: string | null;
  readonly expiresAt: number | null;
  readonly consumedAt: number | null;
}

/** Which member an approved grant acts as, who approved it, for which client and scope. */
export interface GrantRecord {
  readonly grantId: string;
  /** The member the client acts as: the approver, or an assistant member created at approval. */
  readonly memberId: string;
  /** The signed-in person who approved. */
  readonly approvedBy: string;
  readonly clientId: string;
  readonly clientName: string;
  /** The scopes granted, space-separated (may be empty). */
  readonly scope: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

/** A one-time sign-in link as stored: only the sha256 hash of its secret. */
export interface SigninLinkRecord {
  readonly hash: string;
  readonly memberId: string;
  readonly expiresAt: string;
  readonly usedAt: string | null;
}

/** Storage of the OAuth server's records; every method is one statement. */
export interface OAuthStore {
  upsertRecord(record: OAuthRecord): Promise<void>;
  findRecord(model: string, id: string): Promise<OAuthRecord | undefined>;
  findRecordByUid(model: string, uid: string): Promise<OAuthRecord | undefined>;
  findRecordByUserCode(model: string, userCode: string): Promise<OAuthRecord | undefined>;
  consumeRecord(model: string, id: string, at: number): Promise<void>;
  destroyRecord(model: string, id: string): Promise<void>;
  /**
   * Deletes every record (tokens, codes, the grant itself) that belongs to `grantId`, except those of
   * `keepModel` when given.
   */
  destroyGrantRecords(grantId: string, keepModel?: string): Promise<void>;
  /** Deletes records that expired before `now` (epoch seconds); returns how many. */
  purgeExpired(now: number): Promise<number>;

  insertGrant(grant: GrantRecord): Promise<void>;
  findGrant(grantId: string): Promise<GrantRecord | undefined>;
  listGrants(): Promise<GrantRecord[]>;
  /** Marks a grant revoked at `at`; returns false when it was missing or already revoked. */
  revokeGrant(grantId: string, at: string): Promise<boolean>;

  setPassword(memberId: string, hash: string, at: string): Promise<void>;
  getPassword(memberId: string): Promise<string | undefined>;

  insertSigninLink(link: SigninLinkRecord): Promise<void>;
  /** Marks the unused, unexpired link with `hash` used at `at` and returns its member id, in one statement. */
  useSigninLink(hash: string, at: string): Promise<string | undefined>;

  /** The secret called `name`, creating it with `create()` when absent (the first writer wins). */
  secret(name: string, create: () => string): Promise<string>;
}
