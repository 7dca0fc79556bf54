/**
 * Parses the arguments of `recourse call`.
 *
 * @packageDocumentation
 */
import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ProtocolMode, ServerTarget } from '../connection.ts';

/** A parsed `recourse call` command. */
export interface CallCommand {
  readonly target: ServerTarget;
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly timeoutMs: number;
  readonly json: boolean;
  readonly protocol: ProtocolMode;
  readonly retries: number;
  /**
   * OAuth (HTTP only): the owner-only file the tokens are kept in, and whether to sign in interactively when no
   * usable tokens are stored (`--sign-in`) or only use the stored ones (`--auth-file` alone).
   */
  readonly oauth?: { readonly file: string; readonly signIn: boolean };
}

/** What the parser made of the command line. */
export type ParsedArgs =
  | { readonly kind: 'help'; readonly topic: 'main' | 'call' }
  | { readonly kind: 'call'; readonly command: CallCommand }
  | { readonly kind: 'usage_error'; readonly message: string };

/** Splits a command string on spaces, keeping single- or double-quoted parts together. */
export function splitCommand(command: string): string[] {
  const parts: string[] = [];
  for (const match of command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    parts.push(match[1] ?? match[2] ?? match[3] ?? '');
  return parts;
}

const PROTOCOLS: readonly ProtocolMode[] = ['auto', 'modern', 'legacy'];

function usage(message: string): ParsedArgs {
  return { kind: 'usage_error', message: `${message} Run "recourse call --help" for the usage.` };
}

/**
 * Parses `argv` (without `node` and the script). `env` supplies `RECOURSE_TOKEN`, and is passed on to a
 * server started with `--stdio` (which may read its own credentials from it).
 */
export function parseArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): ParsedArgs {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help')
    return { kind: 'help', topic: 'main' };
  if (command !== 'call') return usage(`Unknown command "${command}"; the only command is "call".`);
  const positional: string[] = [];
  let stdio: string | undefined;
  let token = env.RECOURSE_TOKEN;
  let timeoutMs = 30_000;
  let json = false;
  let protocol: ProtocolMode = 'auto';
  let retries = 2;
  let signInFlag = false;
  let authFile: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    const value = (): string | undefined => rest[++i];
    switch (arg) {
      case '--help':
      case '-h':
        return { kind: 'help', topic: 'call' };
      case '--json':
        json = true;
        break;
      case '--stdio':
        stdio = value();
        if (stdio === undefined || stdio.trim() === '')
          return usage('--stdio needs a command, e.g. --stdio "node server.js".');
        break;
      case '--sign-in':
        signInFlag = true;
        break;
      case '--auth-file':
        authFile = value();
        if (authFile === undefined || authFile.trim() === '')
          return usage('--auth-file needs a path, e.g. --auth-file ~/.config/recourse/board.json.');
        break;
      case '--token':
        token = value();
        if (token === undefined) return usage('--token needs a value.');
        break;
      case '--timeout': {
        const ms = Number(value());
        if (!Number.isInteger(ms) || ms <= 0)
          return usage('--timeout needs a whole number of milliseconds above 0, e.g. --timeout 5000.');
        timeoutMs = ms;
        break;
      }
      case '--retries': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0 || n > 10)
          return usage('--retries needs a whole number from 0 to 10.');
        retries = n;
        break;
      }
      case '--protocol': {
        const mode = value();
        if (!PROTOCOLS.includes(mode as ProtocolMode))
          return usage(`--protocol is "${mode ?? ''}"; expected one of ${PROTOCOLS.join(', ')}.`);
        protocol = mode as ProtocolMode;
        break;
      }
      default:
        if (arg.startsWith('--')) return usage(`Unknown option "${arg}".`);
        positional.push(arg);
    }
  }
  const expected = stdio === undefined ? 2 : 1;
  if (positional.length < expected || positional.length > expected + 1) {
    return usage(
      stdio === undefined
        ? 'Expected a server URL, a tool name and optional JSON arguments.'
        : 'Expected a tool name and optional JSON arguments.',
    );
  }
  const oauth = signInFlag || authFile !== undefined;
  if (oauth && stdio !== undefined)
    return usage(
      '--sign-in and --auth-file are for HTTP servers; a --stdio server reads its own credentials.',
    );
  if (oauth && token !== undefined && rest.includes('--token'))
    return usage('Pass either --token or --sign-in, not both: the client sends one credential.');
  let target: ServerTarget;
  let oauthFile: string | undefined;
  if (stdio === undefined) {
    const url = positional.shift() ?? '';
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
      return usage(`The server "${url}" is not an http(s) URL; pass a URL or --stdio "command".`);
    if (oauth) {
      oauthFile = authFile ?? defaultAuthFile(url, env);
      target = { url };
    } else target = token === undefined ? { url } : { url, token };
  } else {
    const [cmd, ...cmdArgs] = splitCommand(stdio);
    const childEnv: Record<string, string> = {};
    for (const [name, value] of Object.entries(env)) if (value !== undefined) childEnv[name] = value;
    target = { stdio: { command: cmd ?? '', args: cmdArgs, env: childEnv } };
  }
  const tool = positional[0] ?? '';
  let args: Record<string, unknown> = {};
  if (positional[1] !== undefined) {
    try {
      const parsed: unknown = JSON.parse(positional[1]);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('not an object');
      args = parsed as Record<string, unknown>;
    } catch {
      return usage(
        `The arguments ${JSON.stringify(positional[1].slice(0, 60))} are not a JSON object; pass e.g. '{"ref":"T-1"}'.`,
      );
    }
  }
  return {
    kind: 'call',
    command: {
      target,
      tool,
      args,
      timeoutMs,
      json,
      protocol,
      retries,
      ...(oauthFile === undefined ? {} : { oauth: { file: oauthFile, signIn: signInFlag } }),
    },
  };
}

/**
 * Where `--sign-in` keeps the tokens for `url` by default: `$XDG_CONFIG_HOME/recourse/oauth/` (else
 * `~/.config/recourse/oauth/`), one file per server named after its host, port and a hash of the URL.
 */
export function defaultAuthFile(url: string, env: Readonly<Record<string, string | undefined>>): string {
  const base = env['XDG_CONFIG_HOME'] ?? join(env['HOME'] ?? homedir(), '.config');
  const { hostname, port, protocol } = new URL(url);
  const hash = createHash('sha256').update(new URL(url).href).digest('hex').slice(0, 12);
  const name = `${hostname.replace(/[^a-z0-9.-]/gi, '_')}_${port || (protocol === 'https:' ? '443' : '80')}_${hash}.json`;
  return join(base, 'recourse', 'oauth', name);
}
