/**
 * How people sign in to the board's pages: a password they set with the CLI, or a one-time sign-in link the CLI
 * prints. Only active members of kind `person` can sign in; assistants act through tokens and grants.
 *
 * @packageDocumentation
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Member } from '../domain/member.ts';
import type { BoardStore } from '../store/board-store.ts';
import type { OAuthStore } from './oauth-store.ts';
import { hashPassword, verifyPassword } from './password-hash.ts';

/** The shortest password accepted. */
export const MIN_PASSWORD_LENGTH = 12;
/** How long a sign-in link works (default 10 minutes). */
export const SIGNIN_LINK_TTL_MS = 10 * 60 * 1000;
/** Every sign-in link's secret starts with this. */
export const SIGNIN_LINK_PREFIX = 'rbl_';

/** Thrown when a member cannot have a password or a link; `code` says why. */
export class AccountError extends Error {
  override readonly name = 'AccountError';
  constructor(
    readonly code: 'MEMBER_NOT_FOUND' | 'MEMBER_NOT_A_PERSON' | 'PASSWORD_TOO_SHORT',
    message: string,
  ) {
    super(message);
  }
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Creates the sign-in service over the board store (members) and the OAuth store (passwords, links). */
export function createMemberAccounts(
  board: BoardStore,
  store: OAuthStore,
  options: { now?: () => Date } = {},
) {
  const now = options.now ?? (() => new Date());

  async function person(memberId: string): Promise<Member> {
    const member = await board.getMember(memberId);
    if (!member || member.revokedAt !== null)
      throw new AccountError(
        'MEMBER_NOT_FOUND',
        `No active member ${JSON.stringify(memberId)}. Run "recourse-board members list" to see member ids.`,
      );
    if (member.kind !== 'person')
      throw new AccountError(
        'MEMBER_NOT_A_PERSON',
        `Member ${member.id} (${member.name}) is an assistant; only people sign in to the board's pages. An assistant gets access when a person approves it on the consent page, or a token from "recourse-board tokens create".`,
      );
    return member;
  }

  return {
    /** The active member `id`, or undefined. */
    async activeMember(id: string): Promise<Member | undefined> {
      const member = await board.getMember(id);
      return member && member.revokedAt === null ? member : undefined;
    },

    /** Sets (or replaces) a person's password. Throws {@link AccountError}. */
    async setPassword(memberId: string, password: string): Promise<Member> {
      const member = await person(memberId);
      if ([...password].length < MIN_PASSWORD_LENGTH)
        throw new AccountError(
          'PASSWORD_TOO_SHORT',
          `The password has ${[...password].length} characters; use at least ${MIN_PASSWORD_LENGTH}. Nothing was changed.`,
        );
      await store.setPassword(member.id, await hashPassword(password), now().toISOString());
      return member;
    },

    /**
     * The person signing in with `login` (a member id, or a name that exactly one active person has) and
     * `password`; undefined when either is wrong (the caller cannot tell which, on purpose).
     */
    async signIn(login: string, password: string): Promise<Member | undefined> {
      const wanted = login.trim();
      const members = (await board.listMembers()).filter((m) => m.revokedAt === null && m.kind === 'person');
      const byId = members.find((m) => m.id === wanted);
      const byName = members.filter((m) => m.name === wanted);
      const member = byId ?? (byName.length === 1 ? byName[0] : undefined);
      const stored = member === undefined ? undefined : await store.getPassword(member.id);
      if (member === undefined || stored === undefined) {
        // Spend the same time as a real check so that timing does not tell which members have passwords.
        await verifyPassword(password, await hashPassword('not-a-password'));
        return undefined;
      }
      return (await verifyPassword(password, stored)) ? member : undefined;
    },

    /** Creates a one-time sign-in link secret for a person, valid for `ttlMs` (default 10 minutes). */
    async createSigninLink(
      memberId: string,
      ttlMs = SIGNIN_LINK_TTL_MS,
    ): Promise<{ secret: string; expiresAt: string }> {
      const member = await person(memberId);
      const secret = SIGNIN_LINK_PREFIX + randomBytes(32).toString('base64url');
      const expiresAt = new Date(now().getTime() + ttlMs).toISOString();
      await store.insertSigninLink({ hash: sha256(secret), memberId: member.id, expiresAt, usedAt: null });
      return { secret, expiresAt };
    },

    /** Uses a link secret once: the active person it signs in, or undefined (unknown, used, expired, revoked). */
    async useSigninLink(secret: string): Promise<Member | undefined> {
      if (!secret.startsWith(SIGNIN_LINK_PREFIX)) return undefined;
      const memberId = await store.useSigninLink(sha256(secret), now().toISOString());
      if (memberId === undefined) return undefined;
      const member = await board.getMember(memberId);
      return member && member.revokedAt === null && member.kind === 'person' ? member : undefined;
    },
  };
}

/** The service returned by {@link createMemberAccounts}. */
export type MemberAccounts = ReturnType<typeof createMemberAccounts>;
