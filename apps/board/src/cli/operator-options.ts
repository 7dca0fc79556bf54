/**
 * What the operator settings mean for the board server and the HTTP host. Kept apart from the settings table so
 * that `--help` does not load the server package.
 *
 * @packageDocumentation
 */
import { DEFAULT_FLOOD_LIMIT, type HttpHostOptions } from '@recourse/server';
import type { BoardServerOptions } from '../board-server.ts';
import type { OperatorSettings } from './operator-settings.ts';

/** The board-server options (rate limits, default deadline, task lease, import timeout) of `settings`. */
export function boardOptionsOf(settings: OperatorSettings): Omit<BoardServerOptions, 'logger'> {
  const rateLimit: Record<string, unknown> = {};
  if (settings.rateLimit !== undefined) rateLimit['defaultPerMinute'] = settings.rateLimit;
  if (settings.rateLimitRoles !== undefined) rateLimit['perRole'] = settings.rateLimitRoles;
  if (settings.rateLimitKinds !== undefined) rateLimit['perKind'] = settings.rateLimitKinds;
  if (settings.rateLimitWindowMs !== undefined) rateLimit['windowMs'] = settings.rateLimitWindowMs;
  return {
    ...(Object.keys(rateLimit).length === 0 ? {} : { rateLimit: rateLimit }),
    ...(settings.deadlineMs === undefined ? {} : { defaultDeadlineMs: settings.deadlineMs }),
    ...(settings.taskLeaseMs === undefined ? {} : { tasks: { leaseMs: settings.taskLeaseMs } }),
    ...(settings.importTimeoutMs === undefined
      ? {}
      : { importSource: { timeoutMs: settings.importTimeoutMs } }),
  };
}

/**
 * The HTTP host options (body, depth, request time, batch size, connections, flood, hosts, origins, public URL)
 * of `settings`; the public URL's host
 * and origin are accepted too.
 */
export function httpOptionsOf(
  settings: OperatorSettings,
): Pick<
  HttpHostOptions,
  | 'maxBodyBytes'
  | 'maxJsonDepth'
  | 'requestTimeoutMs'
  | 'maxBatchMessages'
  | 'maxConnections'
  | 'flood'
  | 'publicUrl'
  | 'alsoAllowedHosts'
  | 'alsoAllowedOrigins'
> {
  const flood =
    settings.floodLimit === false
      ? false
      : settings.floodLimit === undefined && settings.floodWindowMs === undefined
        ? undefined
        : {
            requests: settings.floodLimit ?? DEFAULT_FLOOD_LIMIT.requests,
            perMs: settings.floodWindowMs ?? DEFAULT_FLOOD_LIMIT.perMs,
          };
  const publicUrl = settings.publicUrl === undefined ? undefined : new URL(settings.publicUrl);
  return {
    ...(settings.maxBodyBytes === undefined ? {} : { maxBodyBytes: settings.maxBodyBytes }),
    ...(settings.maxJsonDepth === undefined ? {} : { maxJsonDepth: settings.maxJsonDepth }),
    ...(settings.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: settings.requestTimeoutMs }),
    ...(settings.maxBatchMessages === undefined ? {} : { maxBatchMessages: settings.maxBatchMessages }),
    ...(settings.maxConnections === undefined ? {} : { maxConnections: settings.maxConnections }),
    ...(flood === undefined ? {} : { flood }),
    ...(settings.publicUrl === undefined ? {} : { publicUrl: settings.publicUrl }),
    alsoAllowedHosts: [...(settings.allowedHosts ?? []), ...(publicUrl ? [publicUrl.host] : [])],
    alsoAllowedOrigins: [...(settings.allowedOrigins ?? []), ...(publicUrl ? [publicUrl.origin] : [])],
  };
}
