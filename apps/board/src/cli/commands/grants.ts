/**
 * `recourse-board grants list|revoke`: the OAuth grants people approved on the consent page.
 *
 * @packageDocumentation
 */
import { DATA_DIR_OPTION } from '../data-dir.ts';
import { openBoard } from '../open-board.ts';
import type { CliIo } from '../io.ts';
import { parseSubcommand } from '../parse.ts';
import { silentLogger } from '../silent-logger.ts';

/** Runs a `grants` subcommand; returns the exit code or `'help'`. */
export async function grantsCommand(
  sub: string | undefined,
  args: readonly string[],
  io: CliIo,
): Promise<number | 'help'> {
  const parsedSub = parseSubcommand('grants', sub, args, {
    list: { options: { ...DATA_DIR_OPTION }, positionals: 0 },
    revoke: { options: { ...DATA_DIR_OPTION }, positionals: 1, usage: 'GRANT_ID' },
  });
  if (parsedSub === 'help') return 'help';
  const { parsed } = parsedSub;
  const { board } = await openBoard(io, parsed.values['data-dir'], silentLogger());
  try {
    if (parsedSub.sub === 'revoke') {
      const grant = await board.grants.revoke(parsed.positionals[0] ?? '');
      io.out(
        `Revoked grant ${grant.grantId} of ${grant.clientName} (acting as ${grant.memberId}): its access tokens are refused from their next use and it can no longer refresh.`,
      );
    } else {
      for (const g of await board.grants.list()) {
        io.out(
          [
            g.grantId,
            g.clientName,
            g.clientId,
            g.memberId,
            `approved-by ${g.approvedBy}`,
            g.scope === '' ? '(no scope)' : g.scope,
            g.createdAt,
            g.revokedAt === null ? 'active' : `revoked ${g.revokedAt}`,
          ].join('\t'),
        );
      }
    }
    return 0;
  } finally {
    await board.close();
  }
}
