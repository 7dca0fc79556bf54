/**
 * Strict argument parsing for the CLI commands on `node:util` `parseArgs`.
 *
 * @packageDocumentation
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The parsed flags and positionals of one command. */
export interface Parsed {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
}

/**
 * Parses `args` strictly for `command` with `options` (plus `--help`/`-h`). Unknown flags, missing values
 * and extra positionals become a one-line {@link UsageError} that names the command's `--help`.
 */
export function parseCommand(
  command: string,
  args: readonly string[],
  options: Options,
  maxPositionals = 0,
): Parsed {
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    const config: ParseArgsConfig = {
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: maxPositionals > 0,
    };
    const result = parseArgs(config);
    parsed = { values: result.values as Parsed['values'], positionals: result.positionals };
  } catch (error) {
    const reason =
      (error instanceof Error ? error.message : String(error)).split('\n')[0]?.replace(/\.$/, '') ?? '';
    throw new UsageError(`recourse-board ${command}: ${reason}. Run "recourse-board ${command} --help".`);
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(
      `recourse-board ${command}: unexpected argument ${JSON.stringify(parsed.positionals[maxPositionals])}. Run "recourse-board ${command} --help".`,
    );
  }
  return parsed;
}

/** A string flag's value, or throws a {@link UsageError} when a required flag is missing. */
export function requireFlag(command: string, parsed: Parsed, name: string, accepted: string): string {
  const value = parsed.values[name];
  if (typeof value !== 'string' || value === '') {
    throw new UsageError(
      `recourse-board ${command}: --${name} is required (${accepted}). Run "recourse-board ${command} --help".`,
    );
  }
  return value;
}

/** Checks that `value` is one of `accepted`, else throws a one-line {@link UsageError}. */
export function oneOf<T extends string>(
  command: string,
  flag: string,
  value: string,
  accepted: readonly T[],
): T {
  if (!(accepted as readonly string[]).includes(value)) {
    throw new UsageError(
      `recourse-board ${command}: ${flag} is ${JSON.stringify(value)}; expected one of ${accepted.join(', ')}.`,
    );
  }
  return value as T;
}

/** Parses a whole number in `[min, max]` for `flag`, else throws a one-line {@link UsageError}. */
export function integerFlag(command: string, flag: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(
      `recourse-board ${command}: ${flag} is ${JSON.stringify(value)}; expected a whole number from ${min} to ${max}.`,
    );
  }
  return n;
}

/** Parses a duration like `30d`, `12h`, `45m` or `90s` into milliseconds, else throws a {@link UsageError}. */
export function durationFlag(command: string, flag: string, value: string): number {
  const match = /^(\d{1,6})([smhd])$/.exec(value);
  const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
  if (!match?.[1] || !match[2] || Number(match[1]) === 0) {
    throw new UsageError(
      `recourse-board ${command}: ${flag} is ${JSON.stringify(value)}; expected a duration like 30d, 12h, 45m or 90s.`,
    );
  }
  return Number(match[1]) * unit[match[2] as keyof typeof unit];
}

/** One subcommand's flags and how many positional arguments it requires. */
export interface SubcommandSpec {
  readonly options: Options;
  readonly positionals: number;
  /** What the positionals are, for the "missing" message, e.g. `MEMBER_ID ROLE`. */
  readonly usage?: string;
}

/**
 * Parses `<group> <sub> [args]` strictly against `specs`: `'help'` for `--help` (on the group or the
 * subcommand), else the subcommand's name and parsed flags. Unknown subcommands, flags and missing positionals
 * become a one-line {@link UsageError}.
 */
export function parseSubcommand<K extends string>(
  group: string,
  sub: string | undefined,
  args: readonly string[],
  specs: Readonly<Record<K, SubcommandSpec>>,
): 'help' | { sub: K; parsed: Parsed } {
  if (sub === undefined || sub === '--help' || sub === '-h') return 'help';
  const names = Object.keys(specs) as K[];
  if (!(names as string[]).includes(sub)) {
    throw new UsageError(
      `recourse-board ${group}: unknown subcommand ${JSON.stringify(sub)}; expected ${names.slice(0, -1).join(', ')} or ${names[names.length - 1] ?? ''}.`,
    );
  }
  const name = `${group} ${sub}`;
  const spec = specs[sub as K];
  const parsed = parseCommand(name, args, spec.options, spec.positionals);
  if (parsed.values['help'] === true) return 'help';
  if (parsed.positionals.length < spec.positionals) {
    throw new UsageError(
      `recourse-board ${name}: missing ${spec.usage ?? 'arguments'}. Run "recourse-board ${name} --help".`,
    );
  }
  return { sub: sub as K, parsed };
}
