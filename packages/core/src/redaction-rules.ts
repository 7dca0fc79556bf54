/**
 * The one table of redaction rules: what the redactor scrubs from outgoing failure texts and how.
 * Rules run in order; earlier rules take the whole of a secret before later ones see its parts.
 *
 * @packageDocumentation
 */

/** One redaction rule: a global pattern and the marker (or function) that replaces each match. */
export interface RedactionRule {
  /** Short name, used in tests and docs. */
  readonly name: string;
  readonly pattern: RegExp;
  readonly replace: string | ((match: string, ...groups: string[]) => string);
  /**
   * Substrings of which every match contains at least one (compared case-insensitively when `pattern` has the
   * `i` flag, then written in lower case here): a text containing none of them cannot match, and the rule is
   * skipped for it without running the pattern. Omit it when no such substring exists.
   */
  readonly needs?: readonly string[];
}

/** Keeps trailing sentence punctuation that a greedy pattern swallowed, replacing the rest with `marker`. */
function keepTrailingPunctuation(marker: string): (match: string) => string {
  return (match) => {
    const tail = /[.,;:!?)\]}'"`>]+$/.exec(match)?.[0] ?? '';
    return marker + tail;
  };
}

/** IPv6 candidate check: needs `::` or eight groups, and at least one hex digit (so `a::b` words pass). */
function redactIpv6(match: string): string {
  const core = match
    .replace(/^\[/, '')
    .replace(/\](?::\d+)?$/, '')
    .replace(/%[\w.]+$/, '');
  const groups = core.split(':');
  const compressed = core.includes('::');
  const hexy = groups.every((g) => /^[0-9a-fA-F]{0,4}$/.test(g) || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(g));
  const plausible =
    hexy && (compressed ? groups.length >= 3 : groups.length === 8) && /[0-9a-fA-F]/.test(core);
  return plausible ? '[redacted-ip]' : match;
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const PATH_CHARS = '[^\\s\'"`()<>,;|]';
const CODE_EXTENSIONS =
  '(?:[cm]?[jt]sx?|json|node|sql|py|go|rs|java|rb|php|cs|db|sqlite3?|log|ya?ml|toml|ini|env|pem|key|crt|conf|sh)';
const DB_SCHEMES =
  '(?:postgres(?:ql)?|mysql|mariadb|mssql|sqlserver|oracle|mongodb(?:\\+srv)?|rediss?|amqps?|kafka|nats|' +
  'memcached|cassandra|clickhouse|cockroachdb|couchdb|neo4j(?:\\+s)?|bolt|ldaps?|sftp|ftps?|smtps?|jdbc:[a-z0-9]+)';
const INTERNAL_TLDS = '(?:internal|local|localdomain|lan|corp|intranet|home\\.arpa|private)';
const SECRET_KEYS =
  '(?:api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|access[_-]?token|auth[_-]?token|refresh[_-]?token|' +
  'client[_-]?secret|secret(?:[_-]?key)?|private[_-]?key|token|password|passwd|pwd|passphrase|credentials?|session[_-]?id|cookie)';

/**
 * Not a secret although it ends like one: a page token is a cursor. Written as a lookbehind so that the
 * text rule can use it too.
 */
const NOT_SECRET_BEFORE = '(?<!page[_-]?)';

/**
 * A name that ends in one of the secret keys, with or without a prefix (`password`, `DB_PASSWORD`,
 * `PGPASSWORD`, `githubToken`); compiled once, not once per name checked.
 */
const SECRET_NAME = new RegExp(`${NOT_SECRET_BEFORE}${SECRET_KEYS}$`, 'i');

/**
 * True for an argument or property name that holds a secret: one that ends in a secret word, in snake,
 * kebab, camel or upper case (`password`, `apiKey`, `client_secret`, `dbPassword`, `GITHUB_TOKEN`, …).
 * Page tokens (`pageToken`, `next_page_token`) are cursors, not secrets.
 */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name.replace(/([a-z])([A-Z])/g, '$1_$2'));
}

/**
 * The redaction table. Markers are short and bracketed (`[redacted-…]`) so that a model sees that something
 * was removed. Public `https://` URLs are kept; credentials inside any URL are removed.
 */
export const REDACTION_RULES: readonly RedactionRule[] = [
  // Stack frames first: whole lines go, with the paths inside them.
  {
    name: 'stack-frame',
    pattern:
      /^(?:[ \t]{2,}at [^\n]*|[ \t]*at (?:[^\n]*\((?:[^()\n]*:\d+(?::\d+)?|native|<anonymous>)\)|[^\s()]+:\d+(?::\d+)?)[ \t]*)(?:\r?\n|$)/gm,
    replace: '',
    needs: ['at '],
  },
  {
    name: 'python-frame',
    pattern: /^[ \t]*File "[^"\n]+", line \d+[^\n]*(?:\r?\n|$)/gm,
    replace: '',
    needs: ['File "'],
  },
  {
    name: 'private-key',
    pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    replace: '[redacted-private-key]',
    needs: ['-----BEGIN '],
  },
  {
    name: 'connection-string',
    pattern: new RegExp(`\\b${DB_SCHEMES}:\\/\\/[^\\s'"\`<>]+`, 'gi'),
    replace: keepTrailingPunctuation('[redacted-connection-string]'),
    needs: ['://'],
  },
  {
    name: 'ado-connection-string',
    pattern:
      /\b(?:Server|Data Source|Host|Address|Addr|Network Address|Initial Catalog|Database|User ID|Uid)\s*=\s*[^;\r\n]*;(?:\s*[A-Za-z][A-Za-z ]*=[^;\r\n]*;?)+/gi,
    replace: '[redacted-connection-string]',
    needs: ['='],
  },
  {
    name: 'jwt',
    pattern: /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g,
    replace: '[redacted-jwt]',
    needs: ['eyJ'],
  },
  {
    name: 'authorization',
    pattern: /\b(Bearer|Basic|Token|Digest)\s+[A-Za-z0-9._~+/=-]{8,}/g,
    replace: '$1 [redacted-token]',
  },
  {
    name: 'api-key',
    pattern:
      /\b(?:sk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}|(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{16,}|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}|glpat-[A-Za-z0-9_-]{20,}|npm_[A-Za-z0-9]{36}|xox[abposr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,})/g,
    replace: '[redacted-api-key]',
  },
  {
    name: 'aws-access-key-id',
    pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|AIPA)[A-Z0-9]{16}\b/g,
    replace: '[redacted-api-key]',
  },
  {
    name: 'aws-secret',
    pattern:
      /\b(aws_secret_access_key|aws_session_token|secretAccessKey|SecretAccessKey)(["']?\s*[:=]\s*["']?)[A-Za-z0-9/+=]{40,}/gi,
    replace: '$1$2[redacted-secret]',
  },
  {
    name: 'secret-assignment',
    pattern: new RegExp(
      `(["']?${NOT_SECRET_BEFORE}${SECRET_KEYS}["']?\\s*([:=])\\s*)(["']?)(?!\\[redacted)([^\\s"'&,;]{3,})\\3`,
      'gi',
    ),
    // The key may end a longer name (`DB_PASSWORD=`, `PGPASSWORD=`, `"dbPassword":`), so it is not anchored
    // at a word start. `key=value` and quoted values always; `key: value` only when the value looks like a
    // secret, so that prose such as "token: required" stays.
    replace: (match, lead: string, sep: string, quote: string, value: string) => {
      const tail = quote === '' ? (/[.!?)\]]+$/.exec(value)?.[0] ?? '') : '';
      const core = value.slice(0, value.length - tail.length);
      const secret = sep === '=' || quote !== '' || core.length >= 12 || /[\d\W_]/.test(core);
      return secret ? `${lead}${quote}[redacted-secret]${quote}${tail}` : match;
    },
  },
  {
    name: 'url-credentials',
    pattern: /\b([a-z][a-z0-9+.-]{0,30}:\/\/)[^\s/@'"`<>]{1,256}@/gi,
    replace: '$1[redacted-credentials]@',
    needs: ['://'],
  },
  {
    name: 'slack-webhook',
    pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/g,
    replace: '[redacted-url]',
    needs: ['https://hooks.slack.com/'],
  },
  // SQL statements and driver text.
  {
    name: 'sql-statement',
    pattern:
      /\b(?:SELECT\s[^\n;]*?\bFROM\b|INSERT\s+(?:OR\s+\w+\s+)?INTO\b|UPDATE\s+[\w."`]+\s+SET\b|DELETE\s+FROM\b|(?:CREATE|DROP)\s+(?:UNIQUE\s+)?(?:TABLE|INDEX|VIEW|TRIGGER|SCHEMA|DATABASE|SEQUENCE)\b|ALTER\s+TABLE\b|TRUNCATE\s+TABLE\b|MERGE\s+INTO\b|REPLACE\s+INTO\b|PRAGMA\s+\w+|select\s+(?:\*|[\w.]+(?:\s*,\s*[\w.]+)+)\s+from\b|insert\s+into\b|delete\s+from\b|update\s+\w+\s+set\s+\w+\s*=|create\s+table\b)[^\n;]*;?/g,
    replace: '[redacted-sql]',
  },
  {
    name: 'sqlite-error',
    pattern: /\bSQLITE_[A-Z_]+\b(?::[^\n]*)?/g,
    replace: '[redacted-sql]',
    needs: ['SQLITE_'],
  },
  {
    name: 'sql-driver-text',
    pattern:
      /\b(?:(?:UNIQUE|NOT NULL|CHECK|FOREIGN KEY|PRIMARY KEY) constraint failed:?[^\n]*|no such (?:table|column|index):\s*[\w."]+|table [\w."]+ has no column named [\w."]+|near "[^"\n]*": syntax error|syntax error at or near "[^"\n]*"|(?:relation|constraint|index|schema|database|role|sequence) "[^"\n]+"|column "[^"\n]+" (?:of relation|does not exist|violates)[^\n.]*|Key \([^)\n]*\)=\([^)\n]*\)|ER_[A-Z_]{4,}\b(?::[^\n]*)?)/g,
    replace: '[redacted-sql]',
  },
  // Files and paths.
  {
    name: 'file-url',
    pattern: /\bfile:\/\/[^\s'"`<>]+/g,
    replace: keepTrailingPunctuation('[redacted-path]'),
    needs: ['file://'],
  },
  {
    name: 'windows-path',
    pattern: /(?<![\w])[A-Za-z]:\\[^\s'"`<>|,;]*|\\\\[\w.-]+\\[^\s'"`<>|,;]+/g,
    replace: keepTrailingPunctuation('[redacted-path]'),
    needs: ['\\'],
  },
  {
    name: 'node-modules',
    pattern: new RegExp(`(?<![\\w/])(?:[\\w@.-]{1,100}\\/){0,20}node_modules\\/${PATH_CHARS}*`, 'g'),
    replace: keepTrailingPunctuation('[redacted-path]'),
    needs: ['node_modules/'],
  },
  {
    name: 'absolute-path',
    pattern: new RegExp(`(?<![\\w.:/~\\]-])~?\\/(?:[\\w@.+-]+\\/)+[\\w@.+-]*(?::\\d+(?::\\d+)?)?`, 'g'),
    replace: keepTrailingPunctuation('[redacted-path]'),
    needs: ['/'],
  },
  {
    name: 'relative-source-path',
    pattern: new RegExp(
      `(?<![\\w/.:-])(?:\\.{1,2}\\/)?(?:[\\w@.-]+\\/)+[\\w@.-]+\\.${CODE_EXTENSIONS}(?::\\d+(?::\\d+)?)?\\b`,
      'g',
    ),
    replace: '[redacted-path]',
    needs: ['/'],
  },
  // Addresses and hosts.
  {
    name: 'ipv6',
    pattern: new RegExp(
      `\\[[0-9A-Fa-f:.]+(?:%[\\w.]+)?\\](?::\\d{1,5})?|(?<![\\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:${IPV4}|[0-9A-Fa-f]{0,4})(?:%[\\w.]+)?(?![\\w:])`,
      'g',
    ),
    replace: redactIpv6,
    needs: [':'],
  },
  {
    name: 'ipv4',
    pattern: new RegExp(`(?<![\\w.-])${IPV4}(?::\\d{1,5})?(?!\\.\\d|\\w)`, 'g'),
    replace: '[redacted-ip]',
  },
  {
    name: 'aws-host-name',
    pattern: /\bip-\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}(?:\.[a-z0-9-]+)*(?::\d{1,5})?\b/g,
    replace: '[redacted-host]',
  },
  {
    name: 'internal-host',
    pattern: new RegExp(
      `\\b(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\\.){1,10}${INTERNAL_TLDS}\\b(?::\\d{1,5})?`,
      'gi',
    ),
    replace: '[redacted-host]',
    needs: ['internal', 'local', 'lan', 'corp', 'intranet', 'home.arpa', 'private'],
  },
  {
    name: 'cloud-service-host',
    pattern:
      /\b(?:[a-z0-9-]{1,63}\.){1,10}(?:rds|cache|redshift|elasticache|es|docdb)\.amazonaws\.com\b(?::\d{1,5})?|\b(?:[a-z0-9-]{1,63}\.){1,10}(?:database\.windows\.net|postgres\.database\.azure\.com|redis\.cache\.windows\.net)\b(?::\d{1,5})?/gi,
    replace: '[redacted-host]',
    needs: ['.amazonaws.com', '.windows.net', '.azure.com'],
  },
  {
    name: 'localhost',
    pattern: /\blocalhost:\d{1,5}\b/gi,
    replace: '[redacted-host]',
    needs: ['localhost:'],
  },
  {
    name: 'host-after-network-error',
    pattern:
      /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|getaddrinfo|connect to|host\s*[=:]|hostname\s*[=:])(\s*["']?)(?!\[redacted)([a-z0-9][a-z0-9.-]*[a-z0-9])(?::\d{1,5})?/g,
    replace: (_match, word: string, space: string, host: string) =>
      /[-.]/.test(host) || /\d/.test(host) ? `${word}${space}[redacted-host]` : _match,
  },
  {
    name: 'host-with-port',
    pattern: /(?<![\w.@/-])[a-z][a-z0-9]{0,62}(?:[-.][a-z0-9]{1,63}){1,10}:\d{2,5}\b/g,
    replace: '[redacted-host]',
    needs: [':'],
  },
];

/** The names of the rules that remove credentials, as opposed to internals such as paths, hosts and SQL. */
const SECRET_RULE_NAMES: ReadonlySet<string> = new Set([
  'private-key',
  'connection-string',
  'ado-connection-string',
  'jwt',
  'authorization',
  'api-key',
  'aws-access-key-id',
  'aws-secret',
  'secret-assignment',
  'url-credentials',
  'slack-webhook',
]);

/**
 * The rules of {@link REDACTION_RULES} that remove credentials only (private keys, connection strings, JWTs,
 * bearer and API tokens, cloud keys, `password=…` assignments, credentials in URLs), in the same order. Meant for
 * a tool's successful results, whose paths, host names and queries are the tool's own data.
 */
export const SECRET_REDACTION_RULES: readonly RedactionRule[] = REDACTION_RULES.filter((rule) =>
  SECRET_RULE_NAMES.has(rule.name),
);
