/**
 * Test helpers: an in-memory board with members of every role, and principals and write contexts for them.
 *
 * @packageDocumentation
 */
import type { Principal } from '@recourse/server';
import { memberPrincipal, type Member } from '../domain/member.ts';
import type { Role } from '../domain/roles.ts';
import { createBoardServices, type BoardServices } from '../services/board-services.ts';
import { localWriteContext, type WriteContext } from '../services/write-context.ts';
import { createSqliteBoardStore } from '../store/board-store.sqlite.ts';
import { migrate } from '../store/migrations.sqlite.ts';
import { openDatabase } from '../store/open-database.sqlite.ts';
import type { Database } from 'better-sqlite3';

/** A migrated in-memory board with one member per role (and a second contributor). */
export interface BoardFixture {
  readonly db: Database;
  readonly services: BoardServices;
  readonly members: Record<Role | 'contributor2', Member>;
  /** A write context acting as `member`. */
  as(member: Member): WriteContext;
}

/** The principal of a member. */
export function principalOf(member: Member): Principal {
  return memberPrincipal(member);
}

/** Builds a {@link BoardFixture}; `now` is the services' clock. */
export async function boardFixture(options: { now?: () => Date } = {}): Promise<BoardFixture> {
  const db = openDatabase(':memory:');
  migrate(db);
  const services = createBoardServices(createSqliteBoardStore(db), options);
  const add = (name: string, role: Role, kind: Member['kind'] = 'person') =>
    services.members.add({ name, kind, role });
  const members = {
    owner: await add('Olga', 'owner'),
    maintainer: await add('Max', 'maintainer'),
    contributor: await add('Cleo', 'contributor', 'assistant'),
    contributor2: await add('Carl', 'contributor'),
    viewer: await add('Vic', 'viewer'),
  };
  return { db, services, members, as: (member) => localWriteContext(principalOf(member)) };
}
