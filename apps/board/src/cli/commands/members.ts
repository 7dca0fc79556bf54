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
import { oneOf, parseCommand, requireFlag } from '../parse.ts';
import { UsageError } from '../usage-error.ts';
import { silentLogger } from '../silent-logger.ts';

/** Runs a `members` subcommand; returns the exit code or `'help'`. */
export async function membersCommand(
  sub: string | undefined,
  args: readonly string[],
  io: CliIo,
): Promise<number | 'help'> {
  const name = `members ${sub ?? ''}`.trim();
  const spec = {
    add: {
      options: {
        name: { type: 'string' },
        kind: { type: 'string' },
        role: { type: 'string' },
        ...DATA_DIR_OPTION,
      },
      positionals: 0,
    },
    role: { options: { ...DATA_DIR_OPTION }, positionals: 2 },
    revoke: { options: { ...DATA_DIR_OPTION }, positionals: 1 },
    list: { options: { ...DATA_DIR_OPTION }, positionals: 0 },
  } as const;
  if (sub === undefined || sub === '--help' || sub === '-h') return 'help';
  if (!(sub in spec))
    throw new UsageError(
      `recourse-board members: unknown subcommand ${JSON.stringify(sub)}; expected add, role, revoke or list.`,
    );
  const { options, positionals } = spec[sub as keyof typeof spec];
  const parsed = parseCommand(name, args, options, positionals);
  if (parsed.values['help'] === true) return 'help';
  if (parsed.positionals.length < positionals) {
    throw new UsageError(`recourse-board ${name}: missing arguments. Run "recourse-board ${name} --help".`);
  }

  let input: { name: string; kind: (typeof MEMBER_KINDS)[number]; role: (typeof ROLES)[number] } | undefined;
  if (sub === 'add') {
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
  const newRole = sub === 'role' ? oneOf(name, 'ROLE', parsed.positionals[1] ?? '', ROLES) : undefined;

  const { board } = await openBoard(io, parsed.values['data-dir'], silentLogger());
  try {
    const members = board.services.members;
    if (input) {
      const member = await members.add(input);
      io.out(member.id);
    } else if (newRole !== undefined) {
      const member = await members.setRole(parsed.positionals[0] ?? '', newRole);
      io.out(`${member.id} ${member.name} is now ${member.role}.`);
    } else if (sub === 'revoke') {
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
