/**
 * `recourse-board tokens create|revoke|list`.
 *
 * @packageDocumentation
 */
import { DATA_DIR_OPTION } from '../data-dir.ts';
import { openBoard } from '../open-board.ts';
import type { CliIo } from '../io.ts';
import { durationFlag, parseSubcommand, requireFlag } from '../parse.ts';
import { silentLogger } from '../silent-logger.ts';

/** Runs a `tokens` subcommand; returns the exit code or `'help'`. */
export async function tokensCommand(
  sub: string | undefined,
  args: readonly string[],
  io: CliIo,
): Promise<number | 'help'> {
  const parsedSub = parseSubcommand('tokens', sub, args, {
    create: {
      options: { member: { type: 'string' }, 'expires-in': { type: 'string' }, ...DATA_DIR_OPTION },
      positionals: 0,
    },
    revoke: { options: { ...DATA_DIR_OPTION }, positionals: 1, usage: 'TOKEN_ID|PREFIX' },
    list: { options: { ...DATA_DIR_OPTION }, positionals: 0 },
  });
  if (parsedSub === 'help') return 'help';
  const { parsed } = parsedSub;
  const name = `tokens ${parsedSub.sub}`;
  const member =
    parsedSub.sub === 'create'
      ? requireFlag(name, parsed, 'member', 'a member id like m_3kq9x7d2bz4w')
      : undefined;
  const expires = parsed.values['expires-in'];
  const expiresInMs = typeof expires === 'string' ? durationFlag(name, '--expires-in', expires) : undefined;

  const { board } = await openBoard(io, parsed.values['data-dir'], silentLogger());
  try {
    const tokens = board.services.tokens;
    if (member !== undefined) {
      const { token, record } = await tokens.create(member, expiresInMs);
      io.out(token);
      io.err(
        `Token ${record.id} for member ${member}${record.expiresAt ? `, expires ${record.expiresAt}` : ', no expiry'}. ` +
          'It is shown only this once; send it as "Authorization: Bearer <token>" or set RECOURSE_TOKEN.',
      );
    } else if (parsedSub.sub === 'revoke') {
      const record = await tokens.revoke(parsed.positionals[0] ?? '');
      io.out(`Revoked token ${record.id} (${record.prefix}…) of member ${record.memberId}.`);
    } else {
      for (const t of await tokens.list()) {
        io.out(
          [
            t.id,
            `${t.prefix}…`,
            t.memberId,
            t.createdAt,
            t.expiresAt ?? 'no-expiry',
            t.revokedAt === null ? 'active' : `revoked ${t.revokedAt}`,
          ].join('\t'),
        );
      }
    }
    return 0;
  } finally {
    await board.close();
  }
}
