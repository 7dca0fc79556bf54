/**
 * The redactor: the second line of defence that scrubs every outgoing failure text of stack frames, file
 * paths, internal hosts and IP addresses, connection strings, SQL, bearer tokens, API keys and JWTs.
 *
 * @packageDocumentation
 */
import { REDACTION_RULES, isSecretName, type RedactionRule } from './redaction-rules.ts';

/** Default length, in characters, that {@link redactValue} truncates a rendered value to. */
export const DEFAULT_VALUE_LENGTH = 60;

/** Drops spaces and tabs at the end of a line (a loop, not a regex: linear on long runs of spaces). */
function trimLineEnd(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--;
  return line.slice(0, end);
}

/**
 * Scrubs secrets and internals from a text, replacing each with a short marker such as
 * `[redacted-connection-string]`, `[redacted-ip]` or `[redacted-path]`; stack-frame lines are dropped.
 * Ordinary messages (task refs, dates, versions, permission names, public `https://` URLs) are returned
 * unchanged. Pure and deterministic; never throws.
 *
 * @param rules - The rules to apply, in order (default {@link REDACTION_RULES}); a server that adds rules of its
 *   own passes `[...REDACTION_RULES, ...its rules]`.
 */
export function redactText(text: string, rules: readonly RedactionRule[] = REDACTION_RULES): string {
  let out = text;
  let lower: string | undefined;
  for (const rule of rules) {
    if (rule.needs !== undefined) {
      const haystack = rule.pattern.ignoreCase ? (lower ??= out.toLowerCase()) : out;
      if (!rule.needs.some((needle) => haystack.includes(needle))) continue;
    }
    rule.pattern.lastIndex = 0;
    out =
      typeof rule.replace === 'string'
        ? out.replace(rule.pattern, rule.replace)
        : out.replace(rule.pattern, rule.replace as (match: string, ...rest: unknown[]) => string);
    lower = undefined;
  }
  // Trailing spaces and runs of blank lines, left where rules removed something (or there in the first place).
  if (out.includes(' \n') || out.includes('\t\n') || out.includes('\n\n\n') || /[ \t]$/.test(out))
    out = out
      .split('\n')
      .map(trimLineEnd)
      .join('\n')
      .replace(/\n{3,}/g, '\n\n');
  return text.endsWith('\n') || !out.endsWith('\n') ? out : out.replace(/\n+$/, '');
}

/** JSON-ish rendering of any value: strings quoted, `undefined`, functions, symbols and cycles named. */
function render(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value.toString()}n`;
  if (typeof value === 'function') return '[function]';
  if (typeof value === 'symbol') return value.toString();
  if (value instanceof Error) return `[${value.name}]`;
  const seen = new WeakSet<object>();
  try {
    return (
      JSON.stringify(value, (_key, inner: unknown) => {
        if (typeof inner === 'bigint') return `${inner.toString()}n`;
        if (typeof inner === 'function' || typeof inner === 'symbol') return undefined;
        if (typeof inner === 'object' && inner !== null) {
          if (seen.has(inner)) return '[circular]';
          seen.add(inner);
        }
        return inner;
      }) ?? 'undefined'
    );
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** Cuts `text` to at most `max` characters plus an ellipsis, never inside a redaction marker. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, Math.max(0, max));
  const open = cut.lastIndexOf('[redacted');
  if (open !== -1 && !cut.slice(open).includes(']')) cut = cut.slice(0, open);
  return `${cut}…`;
}

/**
 * Renders a value for a failure message: JSON-ish (strings in double quotes), redacted, and truncated to
 * `maxLength` characters (default {@link DEFAULT_VALUE_LENGTH}) with an ellipsis. The value is redacted
 * before and after truncation, so a cut never exposes part of a secret that the whole would have hidden.
 */
export function redactValue(value: unknown, maxLength: number = DEFAULT_VALUE_LENGTH): string {
  return redactText(truncate(redactText(render(value)), maxLength));
}

/**
 * Renders the value sent under the argument or key `name` for a message: `[redacted-secret]` when the name
 * holds a secret (see `isSecretName`), so not even a part of it is shown; otherwise {@link redactValue}
 * with `maxLength` (default {@link DEFAULT_VALUE_LENGTH}).
 */
export function redactNamedValue(
  name: PropertyKey | undefined,
  value: unknown,
  maxLength: number = DEFAULT_VALUE_LENGTH,
): string {
  return typeof name === 'string' && isSecretName(name) ? '[redacted-secret]' : redactValue(value, maxLength);
}
