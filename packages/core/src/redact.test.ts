import { describe, expect, it } from 'vitest';
import { redactText, redactValue } from './redact.ts';
import fc from 'fast-check';
import { isSecretName, REDACTION_RULES } from './redaction-rules.ts';

/** A realistic leaking message, the secret parts that must be gone, and the marker that replaces them. */
interface LeakSample {
  readonly text: string;
  readonly secrets: readonly string[];
  readonly marker: string;
}

const leaks: readonly LeakSample[] = [
  { text: 'connect ECONNREFUSED 10.0.3.7:5432', secrets: ['10.0.3.7', '5432'], marker: '[redacted-ip]' },
  {
    text: 'connect ETIMEDOUT 172.31.44.201:443 while calling the search index',
    secrets: ['172.31.44.201'],
    marker: '[redacted-ip]',
  },
  { text: 'connect ECONNREFUSED ::1:5432', secrets: ['::1'], marker: '[redacted-ip]' },
  {
    text: 'listen EADDRINUSE: address already in use [fe80::1ff:fe23:4567:890a]:3000',
    secrets: ['fe80::1ff:fe23:4567:890a'],
    marker: '[redacted-ip]',
  },
  {
    text: 'request from 2001:db8:85a3::8a2e:370:7334 was dropped',
    secrets: ['2001:db8:85a3::8a2e:370:7334'],
    marker: '[redacted-ip]',
  },
  {
    text: 'password authentication failed: postgres://board_app:Tr0ub4dor&3@db-primary-3.internal:5432/board?sslmode=require',
    secrets: ['Tr0ub4dor', 'board_app', 'db-primary-3', 'sslmode'],
    marker: '[redacted-connection-string]',
  },
  {
    text: 'MongoServerSelectionError: mongodb+srv://admin:s3cret@cluster0.ab1cd.mongodb.net/tasks',
    secrets: ['s3cret', 'cluster0.ab1cd'],
    marker: '[redacted-connection-string]',
  },
  {
    text: 'Redis connection to redis://:p4ssw0rd@cache-1:6379/0 failed',
    secrets: ['p4ssw0rd', 'cache-1'],
    marker: '[redacted-connection-string]',
  },
  {
    text: 'amqp://guest:guest@rabbit.svc.cluster.local:5672/ closed the channel',
    secrets: ['guest', 'rabbit.svc'],
    marker: '[redacted-connection-string]',
  },
  {
    text: 'mysql://root:hunter2@127.0.0.1:3306/app refused the connection',
    secrets: ['hunter2', '127.0.0.1'],
    marker: '[redacted-connection-string]',
  },
  {
    text: 'Login failed for Server=tcp:sql-prod.database.windows.net,1433;Initial Catalog=board;User ID=sa;Password=Winter2026!;',
    secrets: ['Winter2026', 'sql-prod', 'User ID=sa'],
    marker: '[redacted-connection-string]',
  },
  {
    text: 'Error: invalid token\n    at verify (/app/node_modules/jsonwebtoken/verify.js:120:19)\n    at Object.<anonymous> (/app/src/auth/tokens.ts:44:11)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
    secrets: ['/app', 'verify.js', 'tokens.ts', 'task_queues', 'processTicksAndRejections'],
    marker: 'Error: invalid token',
  },
  {
    text: "TypeError: Cannot read properties of undefined (reading 'ref')\n    at TaskService.get (file:///srv/board/dist/task-service.js:88:21)\n    at async Promise.all (index 0)",
    secrets: ['TaskService.get', '/srv/board', 'Promise.all'],
    marker: "TypeError: Cannot read properties of undefined (reading 'ref')",
  },
  {
    text: 'token rejected: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJtXzEiLCJyb2xlIjoib3duZXIifQ.4pcPyMD09olPSyXnrXCjTwXyr4BsezdI1AVTmud2fU4',
    secrets: ['eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', '4pcPyMD09olPSyXnrXCjTwXyr4BsezdI1AVTmud2fU4'],
    marker: '[redacted-jwt]',
  },
  {
    text: 'upstream said 401 for Authorization: Bearer rcb_live_8f3k2j5h6g7f8d9s0a1q2w3e',
    secrets: ['rcb_live_8f3k2j5h6g7f8d9s0a1q2w3e'],
    marker: 'Bearer [redacted-token]',
  },
  {
    text: 'OpenAI error 401: Incorrect API key provided: sk-proj-Abc123Def456Ghi789Jkl012Mno345',
    secrets: ['sk-proj-Abc123Def456Ghi789Jkl012Mno345', 'Abc123Def456'],
    marker: '[redacted-api-key]',
  },
  {
    text: 'Stripe rejected sk_live_51HxYzAbCdEfGhIjKlMnOpQr for account acct_1',
    secrets: ['sk_live_51HxYzAbCdEfGhIjKlMnOpQr'],
    marker: '[redacted-api-key]',
  },
  {
    text: 'git push failed with ghp_16C7e42F292c6912E7710c838347Ae178B4a',
    secrets: ['ghp_16C7e42F292c6912E7710c838347Ae178B4a'],
    marker: '[redacted-api-key]',
  },
  {
    text: 'GitHub token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789 lacks scope repo',
    secrets: ['github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789'],
    marker: '[redacted-api-key]',
  },
  {
    text: 'Slack post failed, token xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx invalid_auth',
    secrets: ['xoxb-123456789012'],
    marker: '[redacted-api-key]',
  },
  {
    text: 'Maps API: key AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY is not authorized',
    secrets: ['AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY'],
    marker: '[redacted-api-key]',
  },
  {
    text: 'S3 upload denied for AKIAIOSFODNN7EXAMPLE (aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY)',
    secrets: ['AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    marker: '[redacted-api-key]',
  },
  {
    text: 'STS session ASIAY34FZKBOKMUTVV7A expired',
    secrets: ['ASIAY34FZKBOKMUTVV7A'],
    marker: '[redacted-api-key]',
  },
  {
    text: 'could not load key -----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1c7+9z5Pad7OejecsQ0bu3aumBRnmCwxs5S8ZgzH5x\n-----END RSA PRIVATE KEY----- from disk',
    secrets: ['MIIEpAIBAAKCAQEA1c7', 'RSA PRIVATE'],
    marker: '[redacted-private-key]',
  },
  {
    text: 'config error: api_key=9f8e7d6c5b4a39281706 is not valid for this region',
    secrets: ['9f8e7d6c5b4a39281706'],
    marker: '[redacted-secret]',
  },
  {
    text: 'login with {"user":"ops","password":"correct-horse-battery"} refused',
    secrets: ['correct-horse-battery'],
    marker: '[redacted-secret]',
  },
  {
    text: 'webhook https://ops:Pa55word@hooks.example.com/notify answered 500',
    secrets: ['Pa55word', 'ops:'],
    marker: '[redacted-credentials]',
  },
  {
    text: 'SQLITE_CONSTRAINT: UNIQUE constraint failed: tasks.ref',
    secrets: ['tasks.ref', 'SQLITE_CONSTRAINT'],
    marker: '[redacted-sql]',
  },
  {
    text: 'duplicate key value violates unique constraint "tasks_ref_key" Key (ref)=(T-4) already exists.',
    secrets: ['tasks_ref_key', 'Key (ref)'],
    marker: '[redacted-sql]',
  },
  {
    text: 'query failed: SELECT id, ref, title FROM tasks WHERE board_id = $1 AND ref = $2',
    secrets: ['board_id', 'FROM tasks'],
    marker: '[redacted-sql]',
  },
  {
    text: 'error: relation "task_history" does not exist',
    secrets: ['task_history'],
    marker: '[redacted-sql]',
  },
  {
    text: 'Failed to run INSERT INTO call_log (member_id, tool) VALUES (?, ?)',
    secrets: ['call_log', 'member_id'],
    marker: '[redacted-sql]',
  },
  {
    text: 'migration 7 failed at CREATE TABLE idempotency (key TEXT PRIMARY KEY)',
    secrets: ['idempotency (key'],
    marker: '[redacted-sql]',
  },
  {
    text: "ENOENT: no such file or directory, open '/home/deploy/board/.data/board.sqlite'",
    secrets: ['/home/deploy', 'board.sqlite'],
    marker: '[redacted-path]',
  },
  {
    text: 'Cannot find module C:\\Users\\alice\\recourse\\apps\\board\\src\\tools.ts',
    secrets: ['C:\\Users', 'alice'],
    marker: '[redacted-path]',
  },
  {
    text: 'thrown at /app/src/store/task-store.ts:12:5 during commit',
    secrets: ['/app/src', 'task-store.ts'],
    marker: '[redacted-path]',
  },
  {
    text: 'Cannot find package node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    secrets: ['better_sqlite3.node', 'node_modules/'],
    marker: '[redacted-path]',
  },
  { text: 'getaddrinfo ENOTFOUND db-primary-3', secrets: ['db-primary-3'], marker: '[redacted-host]' },
  {
    text: 'pool config host=db-replica-2 port=5432 rejected',
    secrets: ['db-replica-2'],
    marker: '[redacted-host]',
  },
  { text: 'login failed, password: hunter2 was rejected', secrets: ['hunter2'], marker: '[redacted-secret]' },
  {
    text: 'could not reach ip-10-0-0-1.ec2.internal for metrics',
    secrets: ['ip-10-0-0-1', 'ec2.internal'],
    marker: '[redacted-host]',
  },
  {
    text: 'upstream search.board.svc.cluster.local timed out',
    secrets: ['search.board.svc'],
    marker: '[redacted-host]',
  },
  {
    text: 'printer at laserjet.office.lan is offline; tried nas.corp too',
    secrets: ['laserjet.office', 'nas.corp'],
    marker: '[redacted-host]',
  },
  {
    text: 'fetch failed: connect ECONNREFUSED localhost:6379',
    secrets: ['localhost:6379'],
    marker: '[redacted-host]',
  },
  {
    text: 'timeout talking to board-prod.c9akciq32.eu-west-1.rds.amazonaws.com:5432',
    secrets: ['board-prod', 'c9akciq32'],
    marker: '[redacted-host]',
  },
  // secret names with a prefix, as in environment dumps and config errors
  {
    text: 'missing config: DB_PASSWORD=hunter2 is not accepted',
    secrets: ['hunter2'],
    marker: '[redacted-secret]',
  },
  { text: 'PGPASSWORD=hunter2 psql exited with 2', secrets: ['hunter2'], marker: '[redacted-secret]' },
  {
    text: 'env GITHUB_TOKEN=abc123xyz789 was rejected',
    secrets: ['abc123xyz789'],
    marker: '[redacted-secret]',
  },
  { text: 'STRIPE_SECRET_KEY=whatever123 is invalid', secrets: ['whatever123'], marker: '[redacted-secret]' },
  { text: 'database_password: "s3cr3t!" was refused', secrets: ['s3cr3t!'], marker: '[redacted-secret]' },
  { text: 'options {"dbPassword":"hunter2"} failed', secrets: ['hunter2'], marker: '[redacted-secret]' },
];

const ordinary: readonly string[] = [
  'No task T-9. Task refs look like T-1. Call tasks_search to find a task by its title. Nothing was changed.',
  'Argument `due` is "2026-13-01"; expected a date like 2026-07-28.',
  'Argument `priority` is "urgent"; expected one of low, normal, high.',
  'Too many calls: the limit is 60 calls per 60 s. Wait 2.5 s and try again.',
  'Requires @modelcontextprotocol/server version 2.4.0 or later.',
  'This needs permission tasks:create; your role is viewer; roles that hold it: owner, maintainer, contributor.',
  'The server failed while running tasks_get. The server logged this failure as c_7Hq2kP0xYz81LmNoPqRsTu; quote it when reporting the problem.',
  'Task T-12 is at version 4, not 3. Call tasks_get for T-12 and apply your change again.',
  'See https://docs.recourse.dev/errors/not-found#task-refs for the ref format.',
  'The board closes at 18:30:00 UTC on 2026-07-28; moves after that are refused.',
  'Labels read/write, front-end and ops/on-call are accepted; at most 10 labels.',
  'A done task cannot move back to todo. Move it to review first, then to doing.',
  'Idempotency key "import-2026-07-28" was used with other arguments; use a new key.',
  'Unknown tool: tasks_fly. Call tools/list to see the tools available.',
  'Created T-3 at 2026-07-28T09:30:00.000Z by ada@example.com; ratio 3:2:1.',
  'Use host example.com for the public docs; token: required.',
  'Pass page_token=next2 to read the next page; MAX_TOKENS=4000 and my_token_count=3 are limits.',
];

describe('redactText', () => {
  it('has at least 30 leak samples and 10 ordinary messages', () => {
    expect(leaks.length).toBeGreaterThanOrEqual(30);
    expect(ordinary.length).toBeGreaterThanOrEqual(10);
  });

  it.each(leaks.map((l) => [l.text.split('\n')[0]!.slice(0, 70), l] as const))(
    'scrubs %j',
    (_name, sample) => {
      const out = redactText(sample.text);
      for (const secret of sample.secrets) expect(out).not.toContain(secret);
      expect(out).toContain(sample.marker);
    },
  );

  it.each(ordinary.map((t) => [t] as const))('leaves %j unchanged', (text) => {
    expect(redactText(text)).toBe(text);
  });

  it('keeps the message around a stack trace and drops only the frames', () => {
    const out = redactText(
      'Error: boom\n    at run (/app/x.ts:1:2)\n    at main (/app/y.ts:3:4)\nwhile saving T-3',
    );
    expect(out).toBe('Error: boom\nwhile saving T-3');
    expect(redactText('Error: boom\n    at run (/app/x.ts:1:2)')).toBe('Error: boom');
  });

  it('keeps the punctuation after a connection string', () => {
    expect(redactText('Could not open postgres://u:p@h/db.')).toBe(
      'Could not open [redacted-connection-string].',
    );
  });

  it('keeps public URLs but removes their credentials', () => {
    expect(redactText('https://example.com/docs')).toBe('https://example.com/docs');
    expect(redactText('https://alice%40corp.com:pw@example.com/x')).toBe(
      'https://[redacted-credentials]@example.com/x',
    );
  });

  it('scrubs a secret at the end of long, pattern-like input', () => {
    const noise = 'a-b.c-d.'.repeat(4000) + ' ' + ' '.repeat(5000) + 'x/'.repeat(3000);
    const out = redactText(`${noise} connect ECONNREFUSED 10.9.8.7:5432`);
    expect(out).not.toContain('10.9.8.7');
    expect(out.endsWith('connect ECONNREFUSED [redacted-ip]')).toBe(true);
  });

  it('is idempotent', () => {
    for (const l of leaks) {
      const once = redactText(l.text);
      expect(redactText(once)).toBe(once);
    }
  });
});

describe('redactValue', () => {
  it('renders values JSON-ish', () => {
    expect(redactValue('urgent')).toBe('"urgent"');
    expect(redactValue(42)).toBe('42');
    expect(redactValue(null)).toBe('null');
    expect(redactValue(undefined)).toBe('undefined');
    expect(redactValue(['a', 1])).toBe('["a",1]');
    expect(redactValue({ a: 1 })).toBe('{"a":1}');
    expect(redactValue(10n)).toBe('10n');
  });

  it('truncates to the given length with an ellipsis', () => {
    const out = redactValue('z'.repeat(200));
    expect(out).toBe(`"${'z'.repeat(59)}…`);
    expect(redactValue('abcdef', 4)).toBe('"abc…');
  });

  it('redacts secrets even when truncation would cut them', () => {
    const token =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJtXzEiLCJyb2xlIjoib3duZXIifQ.4pcPyMD09olPSyXnrXCjTwXyr4Bs';
    const out = redactValue(`token ${token}`, 30);
    expect(out).not.toContain('eyJ');
    expect(redactValue({ password: 'hunter22', note: 'ok' })).not.toContain('hunter22');
  });

  it('never cuts inside a redaction marker', () => {
    const out = redactValue('see 10.0.0.1 and more text after it', 10);
    expect(out).not.toMatch(/\[redacted-[a-z]*…/);
    expect(out).not.toContain('10.0.0.1');
  });

  it('survives cycles, functions and symbols', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    expect(redactValue(cyclic)).toBe('{"a":1,"self":"[circular]"}');
    expect(redactValue(() => 1)).toBe('[function]');
    expect(redactValue(Symbol('s'))).toBe('Symbol(s)');
  });
});

describe('isSecretName', () => {
  it('recognises secret-holding names in snake and camel case, and nothing else', () => {
    for (const name of [
      'password',
      'apiKey',
      'api_key',
      'client_secret',
      'accessToken',
      'token',
      'privateKey',
      'passwd',
      'dbPassword',
      'DB_PASSWORD',
      'githubToken',
      'newPassword',
    ]) {
      expect(isSecretName(name)).toBe(true);
    }
    for (const name of [
      'title',
      'tokens',
      'secretary',
      'idempotencyKey',
      'ref',
      'priority',
      'pageToken',
      'next_page_token',
      'maxTokens',
      'passwordHint',
    ]) {
      expect(isSecretName(name)).toBe(false);
    }
  });
});

describe('rules skipped by their needs', () => {
  const withoutNeeds = REDACTION_RULES.map(({ needs: _needs, ...rule }) => rule);
  const fragments = [
    ...leaks.map((leak) => leak.text),
    'No task T-9 exists on the board.',
    ' at ',
    '://',
    '\\',
    '/',
    ':',
    '\n',
    '  \n',
    '\n\n\n',
    'LOCAL',
    'Internal.Corp:8080',
    'db.RDS.AMAZONAWS.COM',
    'eyJ',
    'SQLITE_',
    'File "x.py", line 3',
    'node_modules/',
  ];

  it('redacts every text exactly as running all the rules would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...fragments), fc.string()), { maxLength: 8 }),
        (parts) => {
          const text = parts.join(' ');
          expect(redactText(text)).toBe(redactText(text, withoutNeeds));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('still redacts a secret whose rule needs a substring written in another case', () => {
    expect(redactText('connect to Billing.INTERNAL:5432 failed')).not.toContain('INTERNAL');
    expect(redactText('server mydb.Database.WINDOWS.NET refused')).toBe('server [redacted-host] refused');
  });
});
