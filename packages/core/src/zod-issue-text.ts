/**
 * Turns one zod 4 issue into a sentence a model can act on: the argument, the value received (truncated,
 * redacted) and what would be accepted.
 *
 * @packageDocumentation
 */
import { z } from 'zod';
import { redactNamedValue, redactValue } from './redact.ts';
import { acceptedKeys } from './schema-keys.ts';

/** One issue in words. */
export interface IssueText {
  /** The sentence, e.g. "Argument `priority` is "urgent"; expected one of low, normal, high." */
  readonly sentence: string;
  /** The argument path, e.g. `labels[2]`; empty for the arguments as a whole. */
  readonly field: string;
  /** What would be accepted, as a fragment. */
  readonly expected: string;
  /** The value received, rendered and redacted; absent when the argument was missing. */
  readonly received?: string;
}

/** Longest rendering of a key sent by the caller (unknown keys, record keys) before it is cut. */
const MAX_KEY_LENGTH = 40;
/** Most unknown keys named in one sentence; the rest are counted. */
const MAX_NAMED_KEYS = 5;
/** Longest rendering of the value sent under an unknown key. */
const MAX_UNKNOWN_VALUE_LENGTH = 30;

/** Renders a path as `due.date`, `labels[2]` or `meta["odd key"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$-]{0,39}$/.test(key))
      out += out === '' ? key : `.${key}`;
    else out += `[${redactValue(String(key), MAX_KEY_LENGTH)}]`;
  }
  return out;
}

/** The value at `path` in `root`, and whether it is there at all. */
function valueAt(root: unknown, path: readonly PropertyKey[]): { present: boolean; value: unknown } {
  let current: unknown = root;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, key)) {
      return { present: false, value: undefined };
    }
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return { present: current !== undefined, value: current };
}

const TYPE_PHRASES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  date: 'a date',
  array: 'a list',
  tuple: 'a list',
  object: 'an object',
  record: 'an object',
  map: 'an object',
  set: 'a list',
  null: 'null',
  undefined: 'nothing (leave it out)',
  never: 'nothing (leave it out)',
  nonoptional: 'a value',
  nan: 'NaN',
  file: 'a file',
};

const FORMAT_PHRASES: Record<string, string> = {
  email: 'an email address like ada@example.com',
  url: 'a URL like https://example.com/page',
  uuid: 'a UUID like 123e4567-e89b-42d3-a456-426614174000',
  guid: 'a GUID like 123e4567-e89b-42d3-a456-426614174000',
  date: 'a date like 2026-07-28',
  datetime: 'a date and time like 2026-07-28T09:30:00Z',
  time: 'a time like 09:30:00',
  duration: 'an ISO 8601 duration like P3D or PT2H',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  cidrv4: 'an IPv4 range like 192.0.2.0/24',
  cidrv6: 'an IPv6 range',
  e164: 'a phone number in E.164 form like +14155550123',
  base64: 'base64 text',
  base64url: 'base64url text',
  jwt: 'a JSON Web Token',
  emoji: 'an emoji',
  lowercase: 'lowercase text',
  uppercase: 'uppercase text',
  cuid: 'a CUID',
  cuid2: 'a CUID2',
  ulid: 'a ULID',
  nanoid: 'a Nano ID',
  xid: 'an XID',
  ksuid: 'a KSUID',
  hostname: 'a host name',
  hex: 'hexadecimal text',
};

const en = z.locales.en();

/** True when zod's own English text was replaced by a message written on the schema. */
function isCustomMessage(issue: z.core.$ZodIssue, value: unknown): boolean {
  const message = issue.message.trim();
  if (message === '' || /^(Invalid\b|Too (small|big)\b|Unrecognized key)/.test(message)) return false;
  try {
    const raw = { ...issue, input: value } as unknown as z.core.$ZodRawIssue;
    const fallback = en.localeError(raw);
    const text = typeof fallback === 'string' ? fallback : fallback?.message;
    return text !== message;
  } catch {
    return true;
  }
}

const plural = (n: number | bigint, one: string, many: string): string =>
  `${n} ${n === 1 || n === 1n ? one : many}`;

/** What a too_small / too_big bound accepts. */
function boundPhrase(issue: z.core.$ZodIssueTooSmall | z.core.$ZodIssueTooBig): string {
  const small = issue.code === 'too_small';
  const bound = small ? issue.minimum : issue.maximum;
  const inclusive = issue.inclusive !== false;
  const side =
    issue.exact === true
      ? 'exactly'
      : small
        ? inclusive
          ? 'at least'
          : 'more than'
        : inclusive
          ? 'at most'
          : 'less than';
  switch (issue.origin) {
    case 'string':
      return `${side} ${plural(bound, 'character', 'characters')}`;
    case 'array':
    case 'set':
      return `${side} ${plural(bound, 'item', 'items')}`;
    case 'file':
      return `${side} ${plural(bound, 'byte', 'bytes')}`;
    case 'date': {
      const when = new Date(Number(bound)).toISOString();
      return `a date ${small ? (inclusive ? 'on or after' : 'after') : inclusive ? 'on or before' : 'before'} ${when}`;
    }
    default: {
      const words: Record<string, string> = {
        'at least': 'of at least',
        'more than': 'greater than',
        'at most': 'of at most',
        'less than': 'less than',
        exactly: 'equal to',
      };
      return `a number ${words[side] ?? side} ${String(bound)}`;
    }
  }
}

/** Size note for long values: "(120 characters)" or "(12 items)", so a truncated value still shows its size. */
function sizeNote(value: unknown): string {
  if (typeof value === 'string') return ` (${plural(value.length, 'character', 'characters')})`;
  if (Array.isArray(value)) return ` (${plural(value.length, 'item', 'items')})`;
  return '';
}

/** Renders accepted literal values: strings bare, others as JSON. */
function listValues(values: readonly unknown[]): string {
  const parts = values.map((v) =>
    typeof v === 'string' ? v : v === undefined ? 'undefined' : redactValue(v),
  );
  return parts.length === 1 ? `exactly ${parts[0] ?? ''}` : `one of ${parts.join(', ')}`;
}

/** What the issue says would be accepted, as a fragment (no trailing full stop). */
function expectedOf(issue: z.core.$ZodIssue, value: unknown): string {
  if (isCustomMessage(issue, value)) return issue.message.trim().replace(/\.$/, '');
  switch (issue.code) {
    case 'invalid_type':
      return TYPE_PHRASES[issue.expected] ?? `a value of type ${issue.expected}`;
    case 'too_small':
    case 'too_big':
      return boundPhrase(issue);
    case 'invalid_value':
      return listValues(issue.values);
    case 'not_multiple_of':
      return `a multiple of ${String(issue.divisor)}`;
    case 'invalid_format': {
      const f = issue as z.core.$ZodIssueInvalidStringFormat & {
        prefix?: string;
        suffix?: string;
        includes?: string;
      };
      if (f.format === 'starts_with' && f.prefix !== undefined)
        return `text starting with ${JSON.stringify(f.prefix)}`;
      if (f.format === 'ends_with' && f.suffix !== undefined)
        return `text ending with ${JSON.stringify(f.suffix)}`;
      if (f.format === 'includes' && f.includes !== undefined)
        return `text containing ${JSON.stringify(f.includes)}`;
      if (f.format === 'regex') return `text matching the pattern ${f.pattern ?? ''}`.trim();
      return FORMAT_PHRASES[f.format] ?? `text in ${f.format} format`;
    }
    case 'invalid_union': {
      const options = (issue as { options?: readonly unknown[] }).options;
      if (options !== undefined && options.length > 0) return listValues(options);
      const branches = issue.errors
        .map((branch) => branch.find((inner) => inner.path.length === 0))
        .filter((inner): inner is z.core.$ZodIssue => inner !== undefined)
        .map((inner) => expectedOf(inner, value));
      const unique = [...new Set(branches)];
      return unique.length > 0 ? unique.join(' or ') : 'a value matching one of the allowed shapes';
    }
    case 'invalid_key':
    case 'invalid_element': {
      const inner = issue.issues[0];
      return inner !== undefined
        ? expectedOf(inner, issue.code === 'invalid_key' ? issue.path.at(-1) : value)
        : 'a valid entry';
    }
    case 'unrecognized_keys':
      return 'only the known keys';
    default:
      return 'a value that passes the check';
  }
}

/**
 * Joins "Argument `x` is V" with what is accepted. A schema's own message is used as written: a sentence
 * stays a sentence, a modal clause ("must be …") gets "it", a noun phrase gets "expected".
 */
function withExpected(subject: string, expected: string): string {
  const text = expected.trim();
  if (/^[A-Z]/.test(text) && /[.!?]$/.test(text)) return `${subject}. ${text}`;
  if (/^[A-Z][a-z]+ /.test(text) && !/^(?:A|An|One|Only|Exactly|At)\b/.test(text))
    return `${subject}. ${text}.`;
  if (/^(?:must|should|has to|have to|needs?|cannot|can't|may)\b/i.test(text))
    return `${subject}; it ${text}.`;
  return `${subject}; expected ${text}.`;
}

/** A sentence for unknown keys, naming each with the value sent, and the keys accepted. */
function unknownKeysText(issue: z.core.$ZodIssueUnrecognizedKeys, args: unknown, schema: unknown): IssueText {
  const root = issue.path.length === 0;
  const sent = (key: string): string => {
    const { present, value } = valueAt(args, [...issue.path, key]);
    if (!present) return '';
    return ` (${redactNamedValue(key, value, MAX_UNKNOWN_VALUE_LENGTH)})`;
  };
  const named = issue.keys
    .slice(0, MAX_NAMED_KEYS)
    .map((k) => `\`${formatPath([...issue.path, k])}\`${sent(k)}`);
  const more = issue.keys.length - named.length;
  const keys = more > 0 ? [...named, `${more} more`] : named;
  const accepted = acceptedKeys(schema, issue.path);
  const where = root ? '' : ` in \`${formatPath(issue.path)}\``;
  const expected =
    accepted === undefined
      ? `only the known ${root ? 'arguments' : 'keys'}${where}`
      : accepted.length === 0
        ? `no ${root ? 'arguments' : 'keys'}${where}`
        : `only the ${root ? 'arguments' : 'keys'} ${accepted.join(', ')}${where}`;
  const subject =
    keys.length === 1
      ? `Argument ${keys[0] ?? ''} is not accepted`
      : `Arguments ${keys.slice(0, -1).join(', ')} and ${keys.at(-1) ?? ''} are not accepted`;
  const first = issue.keys[0];
  const { value } = valueAt(args, first === undefined ? issue.path : [...issue.path, first]);
  return {
    sentence: `${subject}; expected ${expected}.`,
    field: formatPath(first === undefined ? issue.path : [...issue.path, first]),
    expected,
    received: redactValue(value),
  };
}

/**
 * Describes one zod issue against the arguments it came from (zod 4 issues do not carry the input, so the
 * value is looked up by path in `args`). `schema` lets unknown-key sentences list the accepted keys.
 */
export function describeIssue(issue: z.core.$ZodIssue, args: unknown, schema?: unknown): IssueText {
  if (issue.code === 'unrecognized_keys') return unknownKeysText(issue, args, schema);
  const path = issue.code === 'invalid_key' ? issue.path.slice(0, -1) : issue.path;
  const field = formatPath(path);
  const { present, value } = valueAt(args, path);
  const expected = expectedOf(issue, value);
  const received = present ? redactNamedValue(path.at(-1), value) : undefined;
  if (path.length === 0) {
    const shown = received ?? 'missing';
    const whole = expected === 'an object' ? 'an object of named arguments' : expected;
    return {
      sentence: withExpected(`The arguments are ${shown}`, whole),
      field,
      expected,
      ...(received !== undefined && { received }),
    };
  }
  const subject = `Argument \`${field}\``;
  let sentence: string;
  if (issue.code === 'invalid_key') {
    const key = issue.path.at(-1);
    sentence = `${subject} has a key ${redactValue(String(key), MAX_KEY_LENGTH)} that is not accepted; keys must be ${expected}.`;
  } else if (received === undefined) {
    sentence = withExpected(`${subject} is missing`, expected);
  } else {
    const size = issue.code === 'too_small' || issue.code === 'too_big' ? sizeNote(value) : '';
    sentence = withExpected(`${subject} is ${received}${size}`, expected);
  }
  return { sentence, field, expected, ...(received !== undefined && { received }) };
}
