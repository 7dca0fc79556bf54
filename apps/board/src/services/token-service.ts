/**
 * Bearer tokens: random (`rbt_` + 43 base64url characters from 32 random bytes), stored only as sha256 hashes,
 * revocable and optionally expiring. {@link TokenService.verifier} is the HTTP host's {@link TokenVerifier};
 * {@link TokenService.recheck} checks a stdio connection's token and member again on every call.
 *
 * @packageDocumentation
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Principal, PrincipalRecheck, TokenRefusal, TokenVerifier } from '@recourse/server';
import { memberPrincipal, type Member } from '../domain/member.ts';
import { newId } from '../domain/ids.ts';
import type { TokenRecord } from '../domain/token.ts';
import type { BoardStore } from '../store/board-store.ts';
import { UnknownMemberError } from './member-service.ts';

/** Every board token starts with this. */
export const TOKEN_PREFIX = 'rbt_';

/** How many characters of a token are kept (besides its hash) to recognise it. */
export const TOKEN_PREFIX_LENGTH = 12;

/** Thrown by {@link TokenService.revoke} when nothing matches; `code` is `TOKEN_NOT_FOUND`. */
export class UnknownTokenError extends Error {
  override readonly name = 'UnknownTokenError';
  readonly code = 'TOKEN_NOT_FOUND';
  constructor(selector: string) {
    super(
      `No active token has id or prefix ${JSON.stringify(selector)}. Run "recourse-board tokens list" to see tokens.`,
    );
  }
}

/** Thrown by {@link TokenService.revoke} when a prefix matches several tokens; `code` is `TOKEN_AMBIGUOUS`. */
export class AmbiguousTokenError extends Error {
  override readonly name = 'AmbiguousTokenError';
  readonly code = 'TOKEN_AMBIGUOUS';
  constructor(selector: string, count: number) {
    super(
      `The prefix ${JSON.stringify(selector)} matches ${count} tokens; pass a longer prefix or the token id.`,
    );
  }
}

/** The hex sha256 of a token, as stored. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The principal of an active member verified with the token `credentialId`. */
function principalOf(member: Member, credentialId: string | undefined): Principal {
  return memberPrincipal(member, credentialId);
}

/** Creates the token service over `store`. */
export function createTokenService(store: BoardStore, options: { now?: () => Date } = {}) {
  const clock = options.now ?? (() => new Date());
  const expired = (expiresAt: string | null): boolean =>
    expiresAt !== null && Date.parse(expiresAt) <= clock().getTime();

  return {
    /**
     * Issues a token for an active member; the token is returned once and only its hash is stored.
     * `expiresInMs` (default: never) sets an expiry. Throws {@link UnknownMemberError}.
     */
    async create(memberId: string, expiresInMs?: number): Promise<{ token: string; record: TokenRecord }> {
      const member = await store.getMember(memberId);
      if (!member || member.revokedAt !== null) throw new UnknownMemberError(memberId);
      const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
      const created = clock();
      const record: TokenRecord = {
        id: newId('tok'),
        memberId,
        hash: hashToken(token),
        prefix: token.slice(0, TOKEN_PREFIX_LENGTH),
        createdAt: created.toISOString(),
        expiresAt: expiresInMs === undefined ? null : new Date(created.getTime() + expiresInMs).toISOString(),
        revokedAt: null,
      };
      await store.transaction((tx) => tx.insertToken(record));
      return { token, record };
    },

    /** All stored tokens (hashes, prefixes and dates; never the tokens). */
    list(): Promise<TokenRecord[]> {
      return store.listTokens();
    },

    /**
     * Revokes the active token whose id is `selector`, which is `selector` itself (the whole token), or whose
     * prefix starts with `selector` (at least 6 characters). Only the first {@link TOKEN_PREFIX_LENGTH}
     * characters of a token are stored, so a longer prefix is matched on those. Throws {@link UnknownTokenError}
     * or {@link AmbiguousTokenError}.
     */
    async revoke(selector: string): Promise<TokenRecord> {
      const active = (await store.listTokens()).filter((t) => t.revokedAt === null);
      const whole = selector.startsWith(TOKEN_PREFIX)
        ? await store.findTokenByHash(hashToken(selector))
        : undefined;
      const byId = active.filter((t) => t.id === selector || t.id === whole?.id);
      const stored = selector.slice(0, TOKEN_PREFIX_LENGTH);
      const matches =
        byId.length > 0
          ? byId
          : selector.length >= 6
            ? active.filter((t) => t.prefix.startsWith(stored))
            : [];
      const [match] = matches;
      if (!match) throw new UnknownTokenError(selector);
      if (matches.length > 1) throw new AmbiguousTokenError(selector, matches.length);
      const at = clock().toISOString();
      await store.transaction((tx) => tx.revokeToken(match.id, at));
      return { ...match, revokedAt: at };
    },

    /** The {@link TokenVerifier}: `unknown`, `revoked` (token or member) or `expired`, else the member's principal. */
    verifier(): TokenVerifier {
      return {
        async verify(token) {
          if (!token.startsWith(TOKEN_PREFIX)) return { ok: false, reason: 'unknown' };
          // One lookup of the token and its member: the HTTP host verifies on every request.
          const holder = await store.findTokenHolderByHash(hashToken(token));
          if (!holder) return { ok: false, reason: 'unknown' };
          const { token: record, member } = holder;
          if (record.revokedAt !== null) return { ok: false, reason: 'revoked' };
          if (expired(record.expiresAt)) return { ok: false, reason: 'expired' };
          if (member.revokedAt !== null) return { ok: false, reason: 'revoked' };
          return { ok: true, principal: principalOf(member, record.id) };
        },
      };
    },

    /**
     * The stdio re-check ({@link PrincipalRecheck}): one indexed lookup of the principal's token (`credentialId`)
     * and its member. Refuses `unknown` (no such token, or no such member), `revoked` (token or member) or
     * `expired`; otherwise returns the member's principal as it is now (role and name may have changed). A
     * principal without `credentialId` is checked by its member alone.
     */
    recheck(): PrincipalRecheck {
      const refuse = (refused: TokenRefusal) => ({ refused });
      return async (principal) => {
        const { credentialId } = principal;
        if (credentialId === undefined) {
          const member = await store.getMember(principal.id);
          if (!member) return refuse('unknown');
          return member.revokedAt === null ? principalOf(member, undefined) : refuse('revoked');
        }
        const holder = await store.findTokenHolder(credentialId);
        if (!holder || holder.member.id !== principal.id) return refuse('unknown');
        if (holder.token.revokedAt !== null || holder.member.revokedAt !== null) return refuse('revoked');
        if (expired(holder.token.expiresAt)) return refuse('expired');
        return principalOf(holder.member, credentialId);
      };
    },
  };
}

/** The token service returned by {@link createTokenService}. */
export type TokenService = ReturnType<typeof createTokenService>;
