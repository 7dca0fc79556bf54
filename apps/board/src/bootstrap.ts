/**
 * First start: when the board has no members yet, create an owner and a token for them.
 *
 * @packageDocumentation
 */
import type { Member } from './domain/member.ts';
import type { BoardServices } from './services/board-services.ts';

/** The owner created on first start and their token (shown once). */
export interface FirstOwner {
  readonly member: Member;
  readonly token: string;
}

/** Creates an owner (a person named `name`, default "Owner") and a token when the board has no member; else undefined. */
export async function ensureOwner(services: BoardServices, name = 'Owner'): Promise<FirstOwner | undefined> {
  const members = await services.members.list();
  if (members.length > 0) return undefined;
  const member = await services.members.add({ name, kind: 'person', role: 'owner' });
  const { token } = await services.tokens.create(member.id);
  return { member, token };
}
