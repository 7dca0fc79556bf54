/**
 * `recourse-board stdio`: the board over stdin/stdout as the member whose token is in `RECOURSE_TOKEN`.
 *
 * @packageDocumentation
 */
import { pino } from 'pino';
import { DATA_DIR_OPTION } from '../data-dir.ts';
import { openBoard } from '../open-board.ts';
import { startStdioHost } from '@recourse/server';
import type { CliIo } from '../io.ts';
import { parseCommand } from '../parse.ts';
import { boardOptionsOf, operatorOptions, readOperatorSettings } from '../operator-settings.ts';
import { UsageError } from '../usage-error.ts';

/**
 * Runs `stdio` until stdin closes or a stop is requested; returns the exit code (1: token refused at start-up).
 * The token is verified here once; the board server's `recheckPrincipal` checks it and its member again on every
 * tool call, so a revocation, an expiry or a role change reaches the running session.
 */
export async function stdioCommand(args: readonly string[], io: CliIo): Promise<number | 'help'> {
  const parsed = parseCommand('stdio', args, { ...DATA_DIR_OPTION, ...operatorOptions('stdio') });
  if (parsed.values['help'] === true) return 'help';
  const settings = readOperatorSettings('stdio', parsed.values, io.env);
  const token = io.env['RECOURSE_TOKEN'];
  if (token === undefined || token === '') {
    throw new UsageError(
      'recourse-board stdio: RECOURSE_TOKEN is not set; set it to a member token (recourse-board tokens create).',
    );
  }
  const logger = pino({ name: 'recourse-board', level: io.env['LOG_LEVEL'] ?? 'warn' }, pino.destination(2));
  const { board } = await openBoard(io, parsed.values['data-dir'], logger, boardOptionsOf(settings));
  try {
    const verified = await board.verifier.verify(token);
    if (!verified.ok) {
      io.err(
        `recourse-board stdio: the token in RECOURSE_TOKEN was refused (${verified.reason}); create a new one with "recourse-board tokens create".`,
      );
      return 1;
    }
    const host = await startStdioHost({
      factory: board.server.createMcpServer,
      principal: verified.principal,
      logger,
      ...(settings.maxJsonDepth === undefined ? {} : { maxJsonDepth: settings.maxJsonDepth }),
    });
    await Promise.race([host.closed, io.stopRequested]);
    await host.close();
    return 0;
  } finally {
    await board.close();
  }
}
