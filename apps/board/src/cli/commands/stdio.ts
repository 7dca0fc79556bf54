/**
 * `recourse-board stdio`: the board over stdin/stdout as the member whose token is in `RECOURSE_TOKEN`.
 *
 * @packageDocumentation
 */
import { pino } from 'pino';
import { DATA_DIR_OPTION } from '../data-dir.ts';
import { openBoard } from '../open-board.ts';
import { startStdioHost, type Principal, type TokenRefusal } from '@recourse/server';
import type { CliIo } from '../io.ts';
import { parseCommand } from '../parse.ts';
import { operatorOptions, readOperatorSettings } from '../operator-settings.ts';
import { boardOptionsOf } from '../operator-options.ts';

/** Who a connection serves when its token was refused at start: nobody; every tool call says why. */
function refusedCaller(reason: TokenRefusal): Principal {
  return { id: '(none)', name: 'unverified caller', role: 'none', refused: reason };
}

/**
 * Runs `stdio` until stdin closes or a stop is requested; returns the exit code (1: the token was refused).
 * The token is verified here once; the board server's `recheckPrincipal` checks it and its member again on every
 * tool call, so a revocation, an expiry or a role change reaches the running session. A missing, unknown,
 * revoked or expired token is reported on stderr, and the connection is served all the same: the client can
 * connect and list tools, and every tool call answers `permission` / `CREDENTIAL_REFUSED` saying why, so that
 * the person or model using it learns what to fix instead of seeing the connection close.
 */
export async function stdioCommand(args: readonly string[], io: CliIo): Promise<number | 'help'> {
  const parsed = parseCommand('stdio', args, { ...DATA_DIR_OPTION, ...operatorOptions('stdio') });
  if (parsed.values['help'] === true) return 'help';
  const settings = readOperatorSettings('stdio', parsed.values, io.env);
  const token = io.env['RECOURSE_TOKEN'];
  const logger = pino({ name: 'recourse-board', level: io.env['LOG_LEVEL'] ?? 'warn' }, pino.destination(2));
  const { board } = await openBoard(io, parsed.values['data-dir'], logger, boardOptionsOf(settings));
  try {
    const verified =
      token === undefined || token === ''
        ? ({ ok: false, reason: 'missing' } as const)
        : await board.verifier.verify(token);
    if (!verified.ok) {
      io.err(
        token === undefined || token === ''
          ? 'recourse-board stdio: RECOURSE_TOKEN is not set; every tool call will be refused. Set it to a member token (recourse-board tokens create).'
          : `recourse-board stdio: the token in RECOURSE_TOKEN was refused (${verified.reason}); every tool call will be refused. Create a new one with "recourse-board tokens create".`,
      );
    }
    const host = await startStdioHost({
      factory: board.server.createMcpServer,
      principal: verified.ok ? verified.principal : refusedCaller(verified.reason),
      logger,
      ...(settings.maxJsonDepth === undefined ? {} : { maxJsonDepth: settings.maxJsonDepth }),
    });
    await Promise.race([host.closed, io.stopRequested]);
    await host.close();
    return verified.ok ? 0 : 1;
  } finally {
    await board.close();
  }
}
