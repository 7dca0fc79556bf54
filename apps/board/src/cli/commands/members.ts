/**
 * `recourse-board members add|role|revoke|list`.
 *
 * @packageDocumentation
 */
import { MEMBER_KINDS } from '../../domain/member.ts';
import { ROLES } from '../../domain/roles.ts';
import { DATA_DIR_OPTION } from '../data-dir.ts';
import { openBoard } from '../open-board.ts';
import type { CliIo } from '../io.ts';
import { oneOf, parseSubcommand, requireFlag } from '../parse.ts';
import { UsageError } from '../usage-error.ts';
import { silentLogger } from '../silent-logger.ts';

/** Runs a `members` subcommand; returns the exit code or `'help'`. */
export async function membersCommand(
  sub: string | undefined,
  args: readonly string[],
  io: CliIo,
): Promise<number | 'help'> {
  const parsedSub = parseSubcommand('members', sub, args, {
    add: {
      options: {
        name: { type: 'string' },
        kind: { type: 'string' },
        role: { type: 'string' },
        ...DATA_DIR_OPTION,
      },
      positionals: 0,
    },
    role: { options: { ...DATA_DIR_OPTION }, positionals: 2, usage: 'MEMBER_ID ROLE' },
    revoke: { options: { ...DATA_DIR_OPTION }, positionals: 1, usage: 'MEMBER_ID' },
    list: { options: { ...DATA_DIR_OPTION }, positionals: 0 },
  });
  if (parsedSub === 'help') return 'help';
  const { parsed } = parsedSub;
  const name = `members ${parsedSub.sub}`;

  let input: { name: string; kind: (typeof MEMBER_KINDS)[number]; role: (typeof ROLES)[number] } | undefined;
  if (parsedSub.sub === 'add') {
    const memberName = requireFlag(name, parsed, 'name', 'a display name');
    if (memberName.length > 100)
      throw new UsageError(
        `recourse-board ${name}: --name is ${memberName.length} characters; expected at most 100.`,
      );
    input = {
      name: memberName,
      kind: oneOf(name, '--kind', requireFlag(name, parsed, 'kind', 'person or assistant'), MEMBER_KINDS),
      role: oneOf(name, '--role', requireFlag(name, parsed, 'role', ROLES.join(', ')), ROLES),
    };
  }
  const newRole =
    parsedSub.sub === 'role' ? oneOf(name, 'ROLE', parsed.positionals[1] ?? '', ROLES) : undefined;

  const { board } = await openBoard(io, parsed.values['data-dir'], silentLogger());
  try {
    const members = board.services.members;
    if (input) {
      const member = await members.add(input);
      io.out(member.id);
    } else if (newRole !== undefined) {
      const member = await members.setRole(parsed.positionals[0] ?? '', newRole);
      io.out(`${member.id} ${member.name} is now ${member.role}.`);
    } else if (parsedSub.sub === 'revoke') {
      const member = await members.revoke(parsed.positionals[0] ?? '');
      io.out(`${member.id} ${member.name} is revoked; their tokens no longer work.`);
    } else {
      for (const m of await members.list()) {
        io.out(
          [
            m.id,
            m.name,
            m.kind,
            m.role,
            m.createdAt,
            m.revokedAt === null ? 'active' : `revoked ${m.revokedAt}`,
          ].join('\t'),
        );
      }
    }
    return 0;
  } finally {
    await board.close();
  }
}
