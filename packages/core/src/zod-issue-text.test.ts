import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeIssue, formatPath } from './zod-issue-text.ts';

/** Describes the first issue of parsing `args` with `schema`. */
function first(schema: z.ZodType, args: unknown) {
  const parsed = schema.safeParse(args);
  if (parsed.success) throw new Error('expected a failure');
  return describeIssue(parsed.error.issues[0]!, args, schema);
}

describe('formatPath', () => {
  it('renders dotted names, indexes and odd keys', () => {
    expect(formatPath([])).toBe('');
    expect(formatPath(['due', 'date'])).toBe('due.date');
    expect(formatPath(['labels', 2])).toBe('labels[2]');
    expect(formatPath(['meta', 'odd key'])).toBe('meta["odd key"]');
  });

  it('cuts and redacts keys sent by the caller', () => {
    const path = formatPath(['meta', 'k'.repeat(500)]);
    expect(path.length).toBeLessThan(60);
    expect(formatPath(['meta', 'postgres://u:secretpw@db/x'])).not.toContain('secretpw');
  });
});

describe('describeIssue', () => {
  it('names exact lengths, exclusive bounds and multiples', () => {
    expect(first(z.object({ pin: z.string().length(4) }), { pin: '12345' }).sentence).toBe(
      'Argument `pin` is "12345" (5 characters); expected exactly 4 characters.',
    );
    expect(first(z.object({ n: z.number().positive() }), { n: 0 }).sentence).toBe(
      'Argument `n` is 0; expected a number greater than 0.',
    );
    expect(first(z.object({ n: z.number().lt(10) }), { n: 10 }).sentence).toBe(
      'Argument `n` is 10; expected a number less than 10.',
    );
    expect(first(z.object({ n: z.number().multipleOf(5) }), { n: 7 }).sentence).toBe(
      'Argument `n` is 7; expected a multiple of 5.',
    );
  });

  it('names date bounds as ISO dates', () => {
    const text = first(z.object({ at: z.date().min(new Date('2026-01-01T00:00:00Z')) }), {
      at: new Date('2025-01-01T00:00:00Z'),
    });
    expect(text.expected).toBe('a date on or after 2026-01-01T00:00:00.000Z');
  });

  it('names prefixes and single literals', () => {
    expect(first(z.object({ ref: z.string().startsWith('T-') }), { ref: 'X-1' }).expected).toBe(
      'text starting with "T-"',
    );
    expect(first(z.object({ kind: z.literal('task') }), { kind: 'bug' }).sentence).toBe(
      'Argument `kind` is "bug"; expected exactly task.',
    );
  });

  it('describes refinements without a message as a failed check', () => {
    expect(first(z.object({ x: z.string().refine((v) => v === 'ok') }), { x: 'no' }).sentence).toBe(
      'Argument `x` is "no"; expected a value that passes the check.',
    );
  });

  it('names a record key that is not accepted', () => {
    const text = first(
      z.object({ scores: z.record(z.string().regex(/^[a-z]+$/, 'lowercase letters'), z.number()) }),
      {
        scores: { AB: 1 },
      },
    );
    expect(text.sentence).toBe(
      'Argument `scores` has a key "AB" that is not accepted; keys must be lowercase letters.',
    );
    expect(text.field).toBe('scores');
  });

  it('names at most five unknown keys and counts the rest', () => {
    const args = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, i]));
    const text = first(z.object({ a: z.string().optional() }).strict(), args);
    expect(text.sentence).toBe(
      'Arguments `k0` (0), `k1` (1), `k2` (2), `k3` (3), `k4` (4) and 3 more are not accepted; expected only the arguments a.',
    );
  });
});
