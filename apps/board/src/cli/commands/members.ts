/**
 * `recourse-board members add|role|revoke|list|password|signin-link`.
 *
 * @packageDocumentation
 */
import { MEMBER_KINDS } from '../../domain/member.ts';
import { ROLES } from '../../domain/roles.ts';
import { DATA_DIR_OPTION } from '../data-dir.ts';
import { openBoard } from '../open-board.ts';
import type { CliIo } from '../io.ts';
import { durationFlag, oneOf, parseSubcommand, requireFlag } from '../parse.ts';
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
    password: { options: { ...DATA_DIR_OPTION }, positionals: 1, usage: 'MEMBER_ID' },
    'signin-link': {
      options: { url: { type: 'string' }, 'expires-in': { type: 'string' }, ...DATA_DIR_OPTION },
      positionals: 1,
      usage: 'MEMBER_ID',
    },
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

  const boardUrl = typeof parsed.values['url'] === 'string' ? parsed.values['url'] : 'http://127.0.0.1:3333';
  if (parsedSub.sub === 'signin-link' && URL.parse(boardUrl) === null)
    throw new UsageError(
      `recourse-board ${name}: --url is ${JSON.stringify(boardUrl)}; expected the board's address like http://127.0.0.1:3333.`,
    );
  const linkTtl = parsed.values['expires-in'];
  const linkTtlMs = typeof linkTtl === 'string' ? durationFlag(name, '--expires-in', linkTtl) : undefined;
  const password = parsedSub.sub === 'password' ? await readPassword(io, name) : undefined;

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
      const grants = await board.grants.revokeMember(member.id);
      io.out(
        `${member.id} ${member.name} is revoked; their tokens no longer work` +
          (grants > 0 ? ` and ${grants} OAuth grant(s) they acted through or approved are revoked.` : '.'),
      );
    } else if (password !== undefined) {
      const member = await board.accounts.setPassword(parsed.positionals[0] ?? '', password);
      io.out(
        `Password set for ${member.id} ${member.name}; they can now sign in on the board's consent page.`,
      );
    } else if (parsedSub.sub === 'signin-link') {
      const link = await board.accounts.createSigninLink(parsed.positionals[0] ?? '', linkTtlMs);
      const url = new URL('/signin', boardUrl);
      url.searchParams.set('code', link.secret);
      io.out(url.href);
      io.err(
        `One-time sign-in link; open it in the browser that shows the sign-in page. Works once, until ${link.expiresAt}.`,
      );
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

/** The new password: RECOURSE_PASSWORD when set, else the first line of standard input. */
async function readPassword(io: CliIo, name: string): Promise<string> {
  const fromEnv = io.env['RECOURSE_PASSWORD'];
  const text =
    fromEnv !== undefined && fromEnv !== '' ? fromEnv : ((await io.readStdin?.()) ?? '').split(/\r?\n/)[0];
  if (text === undefined || text === '')
    throw new UsageError(
      `recourse-board ${name}: no password given; pipe it on standard input or set RECOURSE_PASSWORD (never pass it as an argument).`,
    );
  return text;
}
