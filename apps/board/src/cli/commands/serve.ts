/**
 * `recourse-board serve`: the board over HTTP.
 *
 * @packageDocumentation
 */
import { pino } from 'pino';
import { ensureOwner } from '../../bootstrap.ts';
import { DATA_DIR_OPTION } from '../data-dir.ts';
import { openBoard } from '../open-board.ts';
import { createServerMetrics, startHttpHost } from '@recourse/server';
import { OPERATIONS_OPTIONS, readOperationsSettings } from '../operations-settings.ts';
import type { CliIo } from '../io.ts';
import { integerFlag, parseCommand } from '../parse.ts';
import { operatorOptions, readOperatorSettings } from '../operator-settings.ts';
import { boardOptionsOf, httpOptionsOf } from '../operator-options.ts';
import { CONFORMANCE_WARNING, startConformanceHost } from '../../conformance/conformance-host.ts';
import { boardOAuth } from '../../oauth/board-oauth.ts';
import { createLogRing } from '../../web/log-ring.ts';

/** Runs `serve` until a stop is requested; returns the exit code. */
export async function serveCommand(args: readonly string[], io: CliIo): Promise<number | 'help'> {
  const parsed = parseCommand('serve', args, {
    host: { type: 'string' },
    port: { type: 'string' },
    'access-token-ttl': { type: 'string' },
    conformance: { type: 'boolean' },
    ...OPERATIONS_OPTIONS,
    ...DATA_DIR_OPTION,
    ...operatorOptions('serve'),
  });
  if (parsed.values['help'] === true) return 'help';
  const settings = readOperatorSettings('serve', parsed.values, io.env);
  const host = typeof parsed.values['host'] === 'string' ? parsed.values['host'] : '127.0.0.1';
  const port =
    typeof parsed.values['port'] === 'string'
      ? integerFlag('serve', '--port', parsed.values['port'], 0, 65535)
      : 3333;
  const operations = readOperationsSettings(parsed.values, io.env);
  const metrics = operations.metricsToken === undefined ? undefined : createServerMetrics();
  const accessTokenTtl = parsed.values['access-token-ttl'];
  const accessTokenTtlSeconds =
    typeof accessTokenTtl === 'string'
      ? integerFlag('serve', '--access-token-ttl', accessTokenTtl, 10, 86_400)
      : undefined;

  // The failure console's correlation-id lookup reads the last call lines from a ring beside stderr.
  const ring = createLogRing();
  const logger = pino(
    { name: 'recourse-board', level: io.env['LOG_LEVEL'] ?? 'info' },
    pino.multistream([
      { level: 'trace', stream: pino.destination(2) },
      { level: 'trace', stream: ring.stream },
    ]),
  );
  const { board, where } = await openBoard(io, parsed.values['data-dir'], logger, {
    ...boardOptionsOf(settings),
    ...(metrics === undefined
      ? {}
      : {
          observer: metrics,
          onDatabaseError: (kind: 'query' | 'connection') => metrics.databaseError(kind),
        }),
  });
  try {
    const first = await ensureOwner(board.services);
    const conformance = parsed.values['conformance'] === true;
    if (conformance) io.err(CONFORMANCE_WARNING);
    const oauth = boardOAuth(board, {
      logger,
      logLines: (id) => ring.lines(id),
      ...(accessTokenTtlSeconds === undefined ? {} : { accessTokenTtlSeconds }),
    });
    const http = conformance
      ? await startConformanceHost(board, { host, port, logger, oauth })
      : await startHttpHost({
          factory: board.server.createMcpServer,
          canceller: board.server.inflight,
          verifier: oauth.verifier,
          routes: (mcpUrl) => oauth.routes(mcpUrl),
          host,
          port,
          logger,
          ...httpOptionsOf(settings),
          resourceName: 'Recourse Board',
          tokenHint:
            "Sign in again through the board's OAuth authorization server (your client refreshes or restarts the sign-in), or ask the board owner for a token (recourse-board tokens create --member <id>)",
          readiness: board.readiness,
          ...(metrics === undefined || operations.metricsToken === undefined
            ? {}
            : {
                metrics: metrics.endpoint(operations.metricsToken),
                onRefusal: (status: number, reason: string) => metrics.refused(status, reason),
              }),
        });
    const origin = new URL(http.url).origin;
    const link = first === undefined ? undefined : await board.accounts.createSigninLink(first.member.id);
    // One write, so that a process reading the banner never sees the address without the owner token.
    io.out(
      [
        `Recourse Board listening on ${http.url}`,
        `Data: ${where}`,
        `Pages for people: ${origin}/board`,
        ...(first === undefined || link === undefined
          ? []
          : [
              `First start: created owner ${first.member.name} (${first.member.id}). Owner token (shown only once, keep it safe):`,
              first.token,
              `Use it as "Authorization: Bearer <token>" with your MCP client, or RECOURSE_TOKEN=<token> recourse-board stdio.`,
              `Open the board in a browser with this one-time sign-in link (works once, until ${link.expiresAt}):`,
              `${origin}/signin?code=${encodeURIComponent(link.secret)}`,
            ]),
      ].join('\n'),
    );
    const signal = await io.stopRequested;
    io.err(
      `Received ${signal}; draining: /readyz answers 503, new requests get 503, running calls have up to ${String(operations.drainTimeoutMs)} ms.`,
    );
    const report = await http.drain({ timeoutMs: operations.drainTimeoutMs });
    io.err(
      `Drained: ${String(report.inFlight)} request(s) were running, ${report.finished ? 'all finished' : `${String(report.cancelled)} call(s) cancelled`}${report.abandoned > 0 ? `, ${String(report.abandoned)} connection(s) closed unanswered` : ''}. Stopped.`,
    );
    return 0;
  } finally {
    await board.close();
  }
}
