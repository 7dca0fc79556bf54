/**
 * The member service: invite members, change their role, revoke them. A revoked member's tokens stop working
 * because the token verifier checks the member too.
 *
 * @packageDocumentation
 */
import { lastOwner } from '../domain/board-failures.ts';
import { newId } from '../domain/ids.ts';
import type { Member, MemberKind } from '../domain/member.ts';
import type { Role } from '../domain/roles.ts';
import type { BoardStore } from '../store/board-store.ts';

/** Thrown when a member id names nobody; `code` is `MEMBER_NOT_FOUND`. */
export class UnknownMemberError extends Error {
  override readonly name = 'UnknownMemberError';
  readonly code = 'MEMBER_NOT_FOUND';
  constructor(readonly memberId: string) {
    super(`No member ${memberId}. Run "recourse-board members list" to see member ids.`);
  }
}

/** Creates the member service over `store`. */
export function createMemberService(store: BoardStore, options: { now?: () => Date } = {}) {
  const now = () => (options.now ?? (() => new Date()))().toISOString();

  return {
    /** All members, oldest first; revoked ones too unless `activeOnly`. */
    async list(activeOnly = false): Promise<Member[]> {
      const members = await store.listMembers();
      return activeOnly ? members.filter((m) => m.revokedAt === null) : members;
    },

    /** The member with `id`, or undefined. */
    get(id: string): Promise<Member | undefined> {
      return store.getMember(id);
    },

    /** Adds a member and returns it. */
    async add(input: { name: string; kind: MemberKind; role: Role }): Promise<Member> {
      const member: Member = { id: newId('m'), ...input, createdAt: now(), revokedAt: null };
      await store.transaction((tx) => tx.insertMember(member));
      return member;
    },

    /** Changes a member's role. Throws {@link UnknownMemberError}; refuses (`LAST_OWNER`) to demote the last active owner. */
    async setRole(id: string, role: Role): Promise<Member> {
      return store.transaction(async (tx) => {
        const member = await tx.getMember(id);
        if (!member) throw new UnknownMemberError(id);
        const activeOwner = member.role === 'owner' && member.revokedAt === null;
        if (activeOwner && role !== 'owner' && (await tx.countActiveOwners()) <= 1) throw lastOwner(id);
        await tx.updateMember(id, { role });
        return { ...member, role };
      });
    },

    /** Revokes a member (their tokens stop working). Throws {@link UnknownMemberError}; refuses the last owner. */
    async revoke(id: string): Promise<Member> {
      return store.transaction(async (tx) => {
        const member = await tx.getMember(id);
        if (!member) throw new UnknownMemberError(id);
        if (member.revokedAt !== null) return member;
        if (member.role === 'owner' && (await tx.countActiveOwners()) <= 1) throw lastOwner(id);
        const revokedAt = now();
        await tx.updateMember(id, { revokedAt });
        return { ...member, revokedAt };
      });
    },
  };
}

/** The member service returned by {@link createMemberService}. */
export type MemberService = ReturnType<typeof createMemberService>;
