/**
 * Board members: people and AI assistants, each holding one role.
 *
 * @packageDocumentation
 */
import type { Principal } from '@recourse/server';
import type { Role } from './roles.ts';

/** The two kinds of member. */
export const MEMBER_KINDS = ['person', 'assistant'] as const;

/** One of {@link MEMBER_KINDS}. */
export type MemberKind = (typeof MEMBER_KINDS)[number];

/** A member of the board. `revokedAt` is set once the member was revoked; their tokens stop working. */
export interface Member {
  readonly id: string;
  readonly name: string;
  readonly kind: MemberKind;
  readonly role: Role;
  /** ISO 8601 timestamp. */
  readonly createdAt: string;
  /** ISO 8601 timestamp, or null while the member is active. */
  readonly revokedAt: string | null;
}

/** True when `value` is one of {@link MEMBER_KINDS}. */
export function isMemberKind(value: string): value is MemberKind {
  return (MEMBER_KINDS as readonly string[]).includes(value);
}

/**
 * The principal a member calls as: the member id as the principal id, the name and role, and the member's kind
 * as the `kind` attribute. `credentialId` is the id of the token it was verified with.
 */
export function memberPrincipal(member: Member, credentialId?: string): Principal {
  return {
    id: member.id,
    name: member.name,
    role: member.role,
    attributes: { kind: member.kind },
    ...(credentialId === undefined ? {} : { credentialId }),
  };
}

/** The member kind of a principal made by {@link memberPrincipal}, or undefined for any other principal. */
export function memberKindOf(principal: Principal): MemberKind | undefined {
  const kind = principal.attributes?.['kind'];
  return typeof kind === 'string' && isMemberKind(kind) ? kind : undefined;
}
