/**
 * The operations settings of `recourse-board serve`: how long a drain may take and the `/metrics` token, each
 * from a flag or an environment variable (the flag wins), validated at start.
 *
 * @packageDocumentation
 */
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Default drain timeout: longer than the default tool deadline (10 s), so running calls normally finish. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 15_000;

/** The operations settings as `serve` uses them. */
export interface OperationsSettings {
  /** How long running requests may take to finish after SIGTERM before they are cancelled (ms). */
  readonly drainTimeoutMs: number;
  /** The bearer token `/metrics` requires; unset: `/metrics` is off (404). */
  readonly metricsToken?: string;
}

interface Setting {
  readonly flag: string;
  readonly env: string;
  readonly value: string;
  readonly help: string;
  readonly apply: (raw: string, into: Record<string, unknown>, source: string) => void;
}

function refuse(source: string, raw: string, accepted: string): never {
  throw new UsageError(`recourse-board serve: ${source} is ${JSON.stringify(raw)}; expected ${accepted}.`);
}

const UNITS = { ms: 1, s: 1000, m: 60_000 } as const;
const TOKEN_PATTERN = /^[A-Za-z0-9._~+/=-]{16,200}$/;

const SETTINGS: readonly Setting[] = [
  {
    flag: 'drain-timeout',
    env: 'RECOURSE_DRAIN_TIMEOUT',
    value: 'DURATION',
    help: 'after SIGTERM, how long running calls may take before they are cancelled, 0s to 10m (default 15s)',
    apply: (raw, into, source) => {
      const match = /^(\d{1,9})(ms|s|m)$/.exec(raw.trim());
      const ms = match?.[1] && match[2] ? Number(match[1]) * UNITS[match[2] as keyof typeof UNITS] : NaN;
      if (!(ms >= 0 && ms <= 600_000))
        refuse(source, raw, 'a duration like 500ms, 15s or 2m, from 0s to 10m');
      into['drainTimeoutMs'] = ms;
    },
  },
  {
    flag: 'metrics-token',
    env: 'RECOURSE_METRICS_TOKEN',
    value: 'TOKEN',
    help: 'serve Prometheus metrics at /metrics to scrapers sending "Authorization: Bearer TOKEN" (16 to 200 of A-Z a-z 0-9 . _ ~ + / = -); unset: /metrics is off',
    apply: (raw, into, source) => {
      if (!TOKEN_PATTERN.test(raw)) {
        // Never echo a token, even a malformed one.
        throw new UsageError(
          `recourse-board serve: ${source} is not a valid metrics token (${String(raw.length)} characters); expected 16 to 200 characters of A-Z a-z 0-9 . _ ~ + / = -, e.g. from "openssl rand -hex 24".`,
        );
      }
      into['metricsToken'] = raw;
    },
  },
];

/** The `parseArgs` options of the operations settings. */
export const OPERATIONS_OPTIONS: Options = Object.fromEntries(
  SETTINGS.map((s) => [s.flag, { type: 'string' as const }]),
);

/**
 * Reads the operations settings from the parsed flags, else from `env`.
 *
 * @throws UsageError naming the flag (or variable), the value (never a token) and what is accepted.
 */
export function readOperationsSettings(
  values: Readonly<Record<string, string | boolean | undefined>>,
  env: Readonly<Record<string, string | undefined>>,
): OperationsSettings {
  const into: Record<string, unknown> = { drainTimeoutMs: DEFAULT_DRAIN_TIMEOUT_MS };
  for (const setting of SETTINGS) {
    const flag = values[setting.flag];
    const fromEnv = env[setting.env];
    if (typeof flag === 'string') setting.apply(flag, into, `--${setting.flag}`);
    else if (fromEnv !== undefined && fromEnv !== '') setting.apply(fromEnv, into, setting.env);
  }
  return into as unknown as OperationsSettings;
}

/** The `--help` lines of the operations settings, with their environment variables. */
export function operationsHelp(): string {
  return SETTINGS.map((s) => {
    const head = `  --${s.flag} ${s.value}`;
    return `${head.padEnd(28)} ${s.help}\n${' '.repeat(29)}(env ${s.env})`;
  }).join('\n');
}
