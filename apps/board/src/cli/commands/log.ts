/**
 * `recourse-board log`: recent tool calls from the call log.
 *
 * @packageDocumentation
 */
import { DATA_DIR_OPTION } from '../data-dir.ts';
import { openBoard } from '../open-board.ts';
import type { CliIo } from '../io.ts';
import { integerFlag, parseCommand } from '../parse.ts';
import { silentLogger } from '../silent-logger.ts';

/** Runs `log`; returns the exit code or `'help'`. */
export async function logCommand(args: readonly string[], io: CliIo): Promise<number | 'help'> {
  const parsed = parseCommand('log', args, {
    limit: { type: 'string' },
    member: { type: 'string' },
    tool: { type: 'string' },
    ...DATA_DIR_OPTION,
  });
  if (parsed.values['help'] === true) return 'help';
  const limit =
    typeof parsed.values['limit'] === 'string'
      ? integerFlag('log', '--limit', parsed.values['limit'], 1, 10_000)
      : 50;
  const member = parsed.values['member'];
  const tool = parsed.values['tool'];
  const { board } = await openBoard(io, parsed.values['data-dir'], silentLogger());
  try {
    const entries = await board.callLog.recent({
      limit,
      ...(typeof member === 'string' ? { memberId: member } : {}),
      ...(typeof tool === 'string' ? { tool } : {}),
    });
    io.out(['time', 'member', 'tool', 'outcome', 'code', 'duration', 'correlation'].join('\t'));
    for (const e of entries) {
      io.out(
        [
          e.at,
          e.principalId ?? '-',
          e.tool,
          e.outcome,
          e.code ?? '-',
          `${e.durationMs}ms`,
          e.correlationId,
        ].join('\t'),
      );
    }
    return 0;
  } finally {
    await board.close();
  }
}
