/**
 * Operator settings of `recourse-board serve` and `stdio`: every limit the board enforces, settable by a flag or
 * an environment variable (the flag wins), validated once at start. One table ({@link OPERATOR_SETTINGS})
 * drives the flags, the environment names, the checks and the `--help` lines, so a new setting is one entry.
 *
 * @packageDocumentation
 */
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The commands that take operator settings. */
export type SettingsCommand = 'serve' | 'stdio';

/** The settings as the board and its hosts use them (unset ones take the kit's defaults). */
export interface OperatorSettings {
  /** Tool calls (cost units) per member per window, for members without a role or kind limit. */
  readonly rateLimit?: number;
  /** Per-role limits (`owner=600`), winning over per-kind limits and the default. */
  readonly rateLimitRoles?: Readonly<Record<string, number>>;
  /** Per-kind limits (`assistant=60`), winning over the default. */
  readonly rateLimitKinds?: Readonly<Partial<Record<'person' | 'assistant', number>>>;
  /** Rate-limit window in milliseconds. */
  readonly rateLimitWindowMs?: number;
  /** Default tool deadline in milliseconds. */
  readonly deadlineMs?: number;
  /** How long an instance vouches for the tasks it runs; a task of a dead instance is failed after it. */
  readonly taskLeaseMs?: number;
  /** How long a `tasks_import` source URL has to answer completely. */
  readonly importTimeoutMs?: number;
  /** Largest JSON nesting depth of a request. */
  readonly maxJsonDepth?: number;
  /** HTTP only: largest request body in bytes. */
  readonly maxBodyBytes?: number;
  /** Longest time a client may take to send a whole request (`--request-timeout`). */
  readonly requestTimeoutMs?: number;
  /** Most messages in one JSON-RPC batch (`--max-batch`). */
  readonly maxBatchMessages?: number;
  /** Most HTTP connections open at once (`--max-connections`). */
  readonly maxConnections?: number;
  /** HTTP only: requests per flood window per member or unauthenticated client address; `false` turns the guard off. */
  readonly floodLimit?: number | false;
  /** HTTP only: the flood window in milliseconds. */
  readonly floodWindowMs?: number;
  /** HTTP only: accepted `Host` header values besides the loopback names. */
  readonly allowedHosts?: readonly string[];
  /** HTTP only: accepted browser origins besides the loopback origins. */
  readonly allowedOrigins?: readonly string[];
  /** HTTP only: the public URL of the MCP endpoint behind a reverse proxy. */
  readonly publicUrl?: string;
}

/** One operator setting: its flag, environment variable, value syntax, check and help line. */
export interface OperatorSetting {
  /** Flag name without dashes, e.g. `rate-limit`. */
  readonly flag: string;
  /** Environment variable read when the flag is absent, e.g. `RECOURSE_RATE_LIMIT`. */
  readonly env: string;
  /** The commands that take it. */
  readonly commands: readonly SettingsCommand[];
  /** Value placeholder in help, e.g. `CALLS`. */
  readonly value: string;
  /** Help text: what it sets, the accepted values and the default. */
  readonly help: string;
  /** Checks `raw` (from `source`, the flag or the variable) and stores it in `into`; throws a {@link UsageError}. */
  readonly apply: (raw: string, into: Record<string, unknown>, source: string) => void;
}

const MAX_CALLS = 1_000_000;

function refuse(source: string, raw: string, accepted: string): never {
  throw new UsageError(`${source} is ${JSON.stringify(raw)}; expected ${accepted}.`);
}

/** A whole number in `[min, max]`. */
function whole(source: string, raw: string, min: number, max: number): number {
  const n = /^\d{1,16}$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    refuse(source, raw, `a whole number from ${min} to ${max}`);
  return n;
}

const DURATION_UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** A duration like `500ms`, `10s`, `1m` or `1h`, in `[minMs, maxMs]` and a multiple of `stepMs`. */
function duration(
  source: string,
  raw: string,
  minMs: number,
  maxMs: number,
  range: string,
  stepMs = 1,
): number {
  const match = /^(\d{1,9})(ms|s|m|h)$/.exec(raw.trim());
  const ms = match?.[1] && match[2] ? Number(match[1]) * DURATION_UNITS[match[2] as 'ms'] : Number.NaN;
  if (!(ms >= minMs && ms <= maxMs && ms % stepMs === 0))
    refuse(source, raw, `a duration like ${stepMs === 1 ? '500ms, ' : ''}10s or 2m, ${range}`);
  return ms;
}

/** A comma-separated list of `NAME=CALLS` pairs whose names are among `names`. */
function pairs(source: string, raw: string, names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  const accepted = `comma-separated NAME=CALLS pairs with NAME one of ${names.join(', ')} and CALLS a whole number from 1 to ${MAX_CALLS}`;
  for (const part of raw.split(',')) {
    const [name, calls, extra] = part.trim().split('=');
    if (name === undefined || calls === undefined || extra !== undefined || !names.includes(name))
      refuse(source, raw, accepted);
    const n = /^\d{1,7}$/.test(calls) ? Number(calls) : Number.NaN;
    if (!(n >= 1 && n <= MAX_CALLS)) refuse(source, raw, accepted);
    out[name] = n;
  }
  return out;
}

/** A comma-separated list of non-empty items each matching `pattern`. */
function list(source: string, raw: string, pattern: RegExp, accepted: string): string[] {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.length === 0 || items.some((s) => !pattern.test(s))) refuse(source, raw, accepted);
  return items;
}

const HOST_PATTERN = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;
const ORIGIN_PATTERN = /^https?:\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/** Every operator setting, in `--help` order. */
export const OPERATOR_SETTINGS: readonly OperatorSetting[] = [
  {
    flag: 'rate-limit',
    env: 'RECOURSE_RATE_LIMIT',
    commands: ['serve', 'stdio'],
    value: 'CALLS',
    help: `tool calls per member per window, 1 to ${MAX_CALLS} (default 120)`,
    apply: (raw, into, source) => (into['rateLimit'] = whole(source, raw, 1, MAX_CALLS)),
  },
  {
    flag: 'rate-limit-roles',
    env: 'RECOURSE_RATE_LIMIT_ROLES',
    commands: ['serve', 'stdio'],
    value: 'ROLE=CALLS,…',
    help: 'limits per role, e.g. owner=600,viewer=60; win over kind limits and the default',
    apply: (raw, into, source) =>
      (into['rateLimitRoles'] = pairs(source, raw, ['owner', 'maintainer', 'contributor', 'viewer'])),
  },
  {
    flag: 'rate-limit-kinds',
    env: 'RECOURSE_RATE_LIMIT_KINDS',
    commands: ['serve', 'stdio'],
    value: 'KIND=CALLS,…',
    help: 'limits per member kind, e.g. assistant=60,person=300; win over the default',
    apply: (raw, into, source) => (into['rateLimitKinds'] = pairs(source, raw, ['person', 'assistant'])),
  },
  {
    flag: 'rate-limit-window',
    env: 'RECOURSE_RATE_LIMIT_WINDOW',
    commands: ['serve', 'stdio'],
    value: 'DURATION',
    help: 'the window the rate limits count over, 1s to 1h (default 1m)',
    apply: (raw, into, source) =>
      (into['rateLimitWindowMs'] = duration(source, raw, 1000, 3_600_000, 'from 1s to 1h', 1000)),
  },
  {
    flag: 'deadline',
    env: 'RECOURSE_DEADLINE',
    commands: ['serve', 'stdio'],
    value: 'DURATION',
    help: 'default deadline of a tool call, 100ms to 10m (default 10s)',
    apply: (raw, into, source) =>
      (into['deadlineMs'] = duration(source, raw, 100, 600_000, 'from 100ms to 10m')),
  },
  {
    flag: 'task-lease',
    env: 'RECOURSE_TASK_LEASE',
    commands: ['serve', 'stdio'],
    value: 'DURATION',
    help: 'how soon a task whose instance died is failed (its lease), 1s to 10m (default 15s)',
    apply: (raw, into, source) =>
      (into['taskLeaseMs'] = duration(source, raw, 1000, 600_000, 'from 1s to 10m')),
  },
  {
    flag: 'import-timeout',
    env: 'RECOURSE_IMPORT_TIMEOUT',
    commands: ['serve', 'stdio'],
    value: 'DURATION',
    help: 'how long a tasks_import source URL has to answer completely, 100ms to 5m (default 10s)',
    apply: (raw, into, source) =>
      (into['importTimeoutMs'] = duration(source, raw, 100, 300_000, 'from 100ms to 5m')),
  },
  {
    flag: 'max-json-depth',
    env: 'RECOURSE_MAX_JSON_DEPTH',
    commands: ['serve', 'stdio'],
    value: 'LEVELS',
    help: 'deepest JSON nesting a request may have, 8 to 1000 (default 64)',
    apply: (raw, into, source) => (into['maxJsonDepth'] = whole(source, raw, 8, 1000)),
  },
  {
    flag: 'max-body-bytes',
    env: 'RECOURSE_MAX_BODY_BYTES',
    commands: ['serve'],
    value: 'BYTES',
    help: 'largest request body, 1024 to 67108864 (default 1048576, 1 MiB)',
    apply: (raw, into, source) => (into['maxBodyBytes'] = whole(source, raw, 1024, 64 * 1024 * 1024)),
  },
  {
    flag: 'request-timeout',
    env: 'RECOURSE_REQUEST_TIMEOUT',
    commands: ['serve'],
    value: 'DURATION',
    help: 'longest time a client may take to send a whole request (slower ones get 408 and are closed), 1s to 10m (default 30s)',
    apply: (raw, into, source) =>
      (into['requestTimeoutMs'] = duration(source, raw, 1_000, 600_000, 'from 1s to 10m')),
  },
  {
    flag: 'max-batch',
    env: 'RECOURSE_MAX_BATCH',
    commands: ['serve'],
    value: 'MESSAGES',
    help: 'most messages in one JSON-RPC batch (2025-03-26 clients), 1 to 1000 (default 16)',
    apply: (raw, into, source) => (into['maxBatchMessages'] = whole(source, raw, 1, 1000)),
  },
  {
    flag: 'max-connections',
    env: 'RECOURSE_MAX_CONNECTIONS',
    commands: ['serve'],
    value: 'CONNECTIONS',
    help: 'most HTTP connections open at once (the ones beyond are closed as they arrive), 16 to 65536 (default 1024)',
    apply: (raw, into, source) => (into['maxConnections'] = whole(source, raw, 16, 65_536)),
  },
  {
    flag: 'flood-limit',
    env: 'RECOURSE_FLOOD_LIMIT',
    commands: ['serve'],
    value: 'REQUESTS|off',
    help: 'requests per flood window per member, or per client address for requests without an accepted token (all of loopback is one), 10 to 1000000, or off (default 600)',
    apply: (raw, into, source) =>
      (into['floodLimit'] = raw.trim() === 'off' ? false : whole(source, raw, 10, MAX_CALLS)),
  },
  {
    flag: 'flood-window',
    env: 'RECOURSE_FLOOD_WINDOW',
    commands: ['serve'],
    value: 'DURATION',
    help: 'the flood window, 1s to 1h (default 10s)',
    apply: (raw, into, source) =>
      (into['floodWindowMs'] = duration(source, raw, 1000, 3_600_000, 'from 1s to 1h')),
  },
  {
    flag: 'allowed-hosts',
    env: 'RECOURSE_ALLOWED_HOSTS',
    commands: ['serve'],
    value: 'HOST,…',
    help: 'Host header values accepted besides the loopback names, e.g. board.example.com',
    apply: (raw, into, source) =>
      (into['allowedHosts'] = list(
        source,
        raw,
        HOST_PATTERN,
        'comma-separated host names, each NAME or NAME:PORT',
      )),
  },
  {
    flag: 'allowed-origins',
    env: 'RECOURSE_ALLOWED_ORIGINS',
    commands: ['serve'],
    value: 'ORIGIN,…',
    help: 'browser origins accepted besides the loopback ones, e.g. https://board.example.com',
    apply: (raw, into, source) =>
      (into['allowedOrigins'] = list(
        source,
        raw,
        ORIGIN_PATTERN,
        'comma-separated origins like https://board.example.com',
      )),
  },
  {
    flag: 'public-url',
    env: 'RECOURSE_PUBLIC_URL',
    commands: ['serve'],
    value: 'URL',
    help: 'the MCP endpoint as clients reach it behind a reverse proxy, e.g. https://board.example.com/mcp',
    apply: (raw, into, source) => {
      const value = raw.trim();
      if (!/^https?:\/\/[^\s/?#]+\/[^\s?#]*$/.test(value) || !URL.canParse(value))
        refuse(source, raw, 'an http or https URL with a path, like https://board.example.com/mcp');
      into['publicUrl'] = value;
    },
  },
];

/** The settings `command` takes. */
function settingsOf(command: SettingsCommand): OperatorSetting[] {
  return OPERATOR_SETTINGS.filter((s) => s.commands.includes(command));
}

/** The `parseArgs` options of `command`'s operator settings (all string flags). */
export function operatorOptions(command: SettingsCommand): Options {
  return Object.fromEntries(settingsOf(command).map((s) => [s.flag, { type: 'string' as const }]));
}

/**
 * Reads `command`'s settings from the parsed flags, else from `env`, and checks each one.
 *
 * @throws UsageError naming the flag (or variable), the value and the accepted range: one line, exit code 2.
 */
export function readOperatorSettings(
  command: SettingsCommand,
  values: Readonly<Record<string, string | boolean | undefined>>,
  env: Readonly<Record<string, string | undefined>>,
): OperatorSettings {
  const into: Record<string, unknown> = {};
  for (const setting of settingsOf(command)) {
    const flag = values[setting.flag];
    const fromEnv = env[setting.env];
    const [raw, source] =
      typeof flag === 'string'
        ? [flag, `--${setting.flag}`]
        : fromEnv !== undefined && fromEnv !== ''
          ? [fromEnv, setting.env]
          : [undefined, ''];
    if (raw === undefined) continue;
    try {
      setting.apply(raw, into, source);
    } catch (error) {
      if (error instanceof UsageError) throw new UsageError(`recourse-board ${command}: ${error.message}`);
      throw error;
    }
  }
  return into;
}

/** The `--help` lines of `command`'s operator settings, with their environment variables. */
export function operatorHelp(command: SettingsCommand): string {
  return settingsOf(command)
    .map((s) => {
      const head = `  --${s.flag} ${s.value}`;
      return `${head.padEnd(36)} ${s.help}\n${' '.repeat(37)}(env ${s.env})`;
    })
    .join('\n');
}
