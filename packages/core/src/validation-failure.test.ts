import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { failureFromZodError, MAX_LISTED_ISSUES } from './validation-failure.ts';
import { renderFailureText } from './failure-text.ts';

const schema = z
  .object({
    title: z.string().min(1).max(10),
    priority: z.enum(['low', 'normal', 'high']).optional(),
    count: z.number().int().min(1).max(100).optional(),
    labels: z.array(z.string().max(5)).max(3).optional(),
    due: z.object({ date: z.iso.date(), time: z.string().optional() }).strict().optional(),
    ref: z
      .string()
      .regex(/^T-\d+$/, 'a task ref like T-12')
      .optional(),
    refSentence: z
      .string()
      .regex(/^T-\d+$/, 'Task refs look like T-1.')
      .optional(),
    code: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
    email: z.email().optional(),
    note: z
      .string()
      .refine((v) => v.length > 3, 'must be longer than 3 characters')
      .optional(),
    kind: z
      .discriminatedUnion('k', [z.object({ k: z.literal('a') }), z.object({ k: z.literal('b') })])
      .optional(),
    either: z.union([z.string(), z.number()]).optional(),
  })
  .strict();

/** Parses `args` (which must fail) and returns the failure data. */
function fail(args: unknown) {
  const parsed = schema.safeParse(args);
  if (parsed.success) throw new Error('expected the arguments to fail');
  return failureFromZodError(parsed.error, args, { tool: 'tasks_create', schema }).failure;
}

describe('failureFromZodError', () => {
  it('is a non-retryable validation failure with code INVALID_ARGUMENTS that changed nothing', () => {
    const f = fail({ title: 'ok', priority: 'urgent' });
    expect(f).toMatchObject({
      category: 'validation',
      code: 'INVALID_ARGUMENTS',
      retryable: false,
      changed: false,
    });
    expect(f.next).toContain('tasks_create');
  });

  it('names the argument, the value and the accepted values for a bad enum', () => {
    const f = fail({ title: 'ok', priority: 'urgent' });
    expect(f.message).toBe('Argument `priority` is "urgent"; expected one of low, normal, high.');
    expect(f).toMatchObject({
      field: 'priority',
      received: '"urgent"',
      expected: 'one of low, normal, high',
    });
  });

  it('names the expected type and the received value for a wrong type', () => {
    expect(fail({ title: 42 }).message).toBe('Argument `title` is 42; expected a string.');
    expect(fail({ title: 'ok', count: '5' }).message).toBe('Argument `count` is "5"; expected a number.');
    expect(fail({ title: 'ok', count: 2.5 }).message).toBe('Argument `count` is 2.5; expected an integer.');
    expect(fail({ title: null }).message).toBe('Argument `title` is null; expected a string.');
  });

  it('says when a required argument is missing', () => {
    const f = fail({});
    expect(f.message).toBe('Argument `title` is missing; expected a string.');
    expect(f.field).toBe('title');
    expect(f.received).toBeUndefined();
  });

  it('names the bound for out-of-range numbers, strings and lists', () => {
    expect(fail({ title: 'ok', count: 0 }).message).toBe(
      'Argument `count` is 0; expected a number of at least 1.',
    );
    expect(fail({ title: 'ok', count: 101 }).message).toBe(
      'Argument `count` is 101; expected a number of at most 100.',
    );
    expect(fail({ title: '' }).message).toBe(
      'Argument `title` is "" (0 characters); expected at least 1 character.',
    );
    expect(fail({ title: 'abcdefghijkl' }).message).toBe(
      'Argument `title` is "abcdefghijkl" (12 characters); expected at most 10 characters.',
    );
    expect(fail({ title: 'ok', labels: ['a', 'b', 'c', 'd'] }).message).toBe(
      'Argument `labels` is ["a","b","c","d"] (4 items); expected at most 3 items.',
    );
  });

  it('uses nested paths like labels[2] and due.date', () => {
    expect(fail({ title: 'ok', labels: ['a', 'b', 'toolong'] }).message).toBe(
      'Argument `labels[2]` is "toolong" (7 characters); expected at most 5 characters.',
    );
    const f = fail({ title: 'ok', due: { date: '2026-13-01' } });
    expect(f.message).toBe('Argument `due.date` is "2026-13-01"; expected a date like 2026-07-28.');
    expect(f.field).toBe('due.date');
  });

  it('says what format is expected, preferring the message written on the schema', () => {
    expect(fail({ title: 'ok', email: 'nope' }).message).toBe(
      'Argument `email` is "nope"; expected an email address like ada@example.com.',
    );
    expect(fail({ title: 'ok', ref: 'X9' }).message).toBe(
      'Argument `ref` is "X9"; expected a task ref like T-12.',
    );
    expect(fail({ title: 'ok', refSentence: '9' }).message).toBe(
      'Argument `refSentence` is "9". Task refs look like T-1.',
    );
    expect(fail({ title: 'ok', code: 'abc' }).message).toBe(
      'Argument `code` is "abc"; expected text matching the pattern /^[A-Z]{3}$/.',
    );
    expect(fail({ title: 'ok', note: 'ab' }).message).toBe(
      'Argument `note` is "ab"; it must be longer than 3 characters.',
    );
  });

  it('names each unknown key and lists the accepted keys from the schema', () => {
    const f = fail({ title: 'ok', colour: 'red' });
    expect(f.message).toBe(
      'Argument `colour` ("red") is not accepted; expected only the arguments title, priority, count, labels, due, ref, refSentence, code, email, note, kind, either.',
    );
    expect(f.field).toBe('colour');
    expect(f.received).toBe('"red"');
    expect(fail({ title: 'ok', colour: 'red', size: 3 }).message).toMatch(
      /^Arguments `colour` \("red"\) and `size` \(3\) are not accepted;/,
    );
    expect(fail({ title: 'ok', due: { date: '2026-07-28', zone: 'UTC' } }).message).toBe(
      'Argument `due.zone` ("UTC") is not accepted; expected only the keys date, time in `due`.',
    );
  });

  it('still names unknown keys when no schema is given', () => {
    const parsed = schema.safeParse({ title: 'ok', colour: 'red' });
    const f = failureFromZodError(
      parsed.error!,
      { title: 'ok', colour: 'red' },
      { tool: 'tasks_create' },
    ).failure;
    expect(f.message).toBe('Argument `colour` ("red") is not accepted; expected only the known arguments.');
  });

  it('describes unions and discriminators by their accepted shapes', () => {
    expect(fail({ title: 'ok', either: true }).message).toBe(
      'Argument `either` is true; expected a string or a number.',
    );
    expect(fail({ title: 'ok', kind: { k: 'c' } }).message).toBe(
      'Argument `kind.k` is "c"; expected one of a, b.',
    );
  });

  it('refuses arguments that are not an object', () => {
    const parsed = schema.safeParse(42);
    expect(failureFromZodError(parsed.error!, 42, { tool: 'tasks_create', schema }).failure.message).toBe(
      'The arguments are 42; expected an object of named arguments.',
    );
  });

  it('lists at most five issues and counts the rest', () => {
    const f = fail({ title: 1, priority: 2, count: 'x', labels: 3, due: 4, ref: 5, code: 6 });
    const sentences = f.message.match(/Argument `/g) ?? [];
    expect(sentences).toHaveLength(MAX_LISTED_ISSUES);
    expect(f.message).toMatch(/2 more problems were not listed\.$/);
  });

  it('truncates long values and redacts secrets in them', () => {
    const long = fail({ title: 'y'.repeat(300) });
    expect(long.received!.length).toBeLessThanOrEqual(62);
    expect(long.message).toContain('(300 characters)');
    const secret = fail({ title: 'ok', priority: 'postgres://admin:hunter2@10.1.2.3/board' });
    expect(secret.message).not.toContain('hunter2');
    expect(secret.message).not.toContain('10.1.2.3');
    expect(secret.message).toContain('[redacted-connection-string]');
  });

  it('never shows the value of an argument named like a secret', () => {
    const secretSchema = z
      .object({ password: z.string().min(12), apiKey: z.string().startsWith('rk_') })
      .strict();
    const args = { password: 'hunter2', apiKey: 'abc123' };
    const parsed = secretSchema.safeParse(args);
    const f = failureFromZodError(parsed.error!, args, {
      tool: 'members_invite',
      schema: secretSchema,
    }).failure;
    expect(f.message).not.toContain('hunter2');
    expect(f.message).not.toContain('abc123');
    expect(f.message).toContain(
      'Argument `password` is [redacted-secret] (7 characters); expected at least 12 characters.',
    );
    expect(f.received).toBe('[redacted-secret]');
  });

  it('never shows the value sent under an unknown key named like a secret', () => {
    const strict = z.object({ title: z.string() }).strict();
    const args = { title: 'ok', dbPassword: 'hunter2', colour: 'red' };
    const parsed = strict.safeParse(args);
    const f = failureFromZodError(parsed.error!, args, { tool: 'tasks_create', schema: strict }).failure;
    expect(f.message).not.toContain('hunter2');
    expect(f.message).toContain('`dbPassword` ([redacted-secret])');
    expect(f.message).toContain('`colour` ("red")');
  });

  it('renders as a text that does not repeat what is expected', () => {
    const text = renderFailureText(fail({ title: 'ok', priority: 'urgent' }));
    expect(text).toBe(
      'Argument `priority` is "urgent"; expected one of low, normal, high. Correct the arguments and call tasks_create again; its input schema lists every argument it takes. Nothing was changed. Retrying unchanged will not help.',
    );
  });
});

describe('the rendered text of an unknown-key failure', () => {
  it('names the key, the value sent and the accepted arguments once', () => {
    const strict = z.object({ title: z.string(), due: z.string().optional() }).strict();
    const args = { title: 'ok', priority: 'urgent' };
    const parsed = strict.safeParse(args);
    const text = renderFailureText(
      failureFromZodError(parsed.error!, args, { tool: 'tasks_create', schema: strict }).failure,
    );
    expect(text).toContain(
      'Argument `priority` ("urgent") is not accepted; expected only the arguments title, due.',
    );
    expect(text.split('title, due').length - 1).toBe(1);
  });
});
