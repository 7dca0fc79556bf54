import { describe, expect, it } from 'vitest';
import { FAILURE_META_KEY, decodeFailure, encodeFailure } from './wire-codec.ts';
import { internalFailure, notFound, permissionDenied, rateLimited } from './failure-helpers.ts';
import type { FailureData } from './failure.ts';
import { REDACTION_RULES } from './redaction-rules.ts';

describe('encodeFailure', () => {
  it('produces an isError result with standalone text and the failure meta', () => {
    const f = notFound({
      code: 'TASK_NOT_FOUND',
      message: 'No task T-9.',
      expected: 'Task refs look like T-1.',
      next: 'Call tasks_search to find a task by its title.',
      correlationId: 'c_7Hq2abcdefghijklmn',
    }).failure;
    const result = encodeFailure(f);
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(1);
    expect(result.content[0].text).toContain('No task T-9. Task refs look like T-1. Call tasks_search');
    expect(result._meta[FAILURE_META_KEY]).toMatchObject({
      category: 'not_found',
      code: 'TASK_NOT_FOUND',
      retryable: false,
      changed: false,
      correlationId: 'c_7Hq2abcdefghijklmn',
    });
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('redacts the text and the meta, and never puts `received` in the meta', () => {
    const f: FailureData = {
      category: 'transient',
      code: 'UPSTREAM_DOWN',
      message: 'connect ECONNREFUSED 10.0.3.7:5432 while saving T-3',
      next: 'See postgres://app:s3cr3t@db.internal:5432/board',
      received: '"Bearer abcdefghijklmnop"',
      retryable: true,
      retryAfterMs: 2000,
      changed: false,
    };
    const result = encodeFailure(f);
    const wire = JSON.stringify(result);
    expect(wire).not.toContain('10.0.3.7');
    expect(wire).not.toContain('s3cr3t');
    expect(wire).not.toContain('abcdefghijklmnop');
    expect(result._meta[FAILURE_META_KEY]).not.toHaveProperty('received');
    expect(result.content[0].text).toContain('T-3');
    expect(result.content[0].text).toContain('Wait 2 s and try again.');
  });
});

describe('encodeFailure of the same fields again', () => {
  const rule = { name: 'codename', pattern: /\bPROJECT-X\b/g, replace: '[redacted-codename]' };
  const failure = (next: string): FailureData =>
    notFound({ code: 'TASK_NOT_FOUND', message: 'No task T-9.', next }).failure;
  const nextOf = (result: ReturnType<typeof encodeFailure>): string | undefined =>
    result._meta[FAILURE_META_KEY].next;

  it('redacts a field under each rule table as that table says, whichever table saw it first', () => {
    const plain = [...REDACTION_RULES];
    const own = [...REDACTION_RULES, rule];
    for (let round = 0; round < 3; round += 1) {
      expect(nextOf(encodeFailure(failure('Ask PROJECT-X for access.'), plain))).toBe(
        'Ask PROJECT-X for access.',
      );
      expect(nextOf(encodeFailure(failure('Ask PROJECT-X for access.'), own))).toBe(
        'Ask [redacted-codename] for access.',
      );
    }
  });

  it('redacts a secret in a field every time, also after many other clean fields', () => {
    const secret = 'Retry with password=hunter2hunter2.';
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < 600; i += 1) encodeFailure(failure(`Call tasks_search for T-${String(i)}.`));
      const result = encodeFailure(failure(secret));
      expect(nextOf(result)).not.toContain('hunter2');
      expect(result.content[0].text).not.toContain('hunter2');
    }
  });
});

describe('encodeFailure of an internal failure', () => {
  it('carries nothing of the original error, only the correlation id', () => {
    const cause = new Error(
      'insert failed: SQLITE_BUSY at /srv/board/.data/board.sqlite (host db-1.internal)',
    );
    const result = encodeFailure(
      internalFailure({ tool: 'tasks_create', correlationId: 'c_AbCdEfGhIjKlMnOpQrStUv', cause }).failure,
    );
    const wire = JSON.stringify(result);
    for (const leak of ['SQLITE', 'board.sqlite', 'db-1', 'insert failed']) expect(wire).not.toContain(leak);
    expect(result.content[0].text).toBe(
      'The server failed while running tasks_create. Nothing was changed. Retrying unchanged will not help. The server logged this failure as c_AbCdEfGhIjKlMnOpQrStUv; quote it when reporting the problem.',
    );
    expect(decodeFailure(result)).toMatchObject({
      category: 'internal',
      code: 'INTERNAL_ERROR',
      retryable: false,
    });
  });
});

describe('decodeFailure', () => {
  it('round-trips everything but `received`', () => {
    const samples: FailureData[] = [
      notFound({ code: 'TASK_NOT_FOUND', message: 'No task T-9.', next: 'Call tasks_search.' }).failure,
      rateLimited({ retryAfterMs: 1500 }).failure,
      permissionDenied({
        tool: 'tasks_delete',
        permission: 'tasks:delete',
        role: 'contributor',
        grantedTo: ['owner', 'maintainer'],
      }).failure,
      {
        category: 'validation',
        code: 'INVALID_ARGUMENTS',
        message: 'Argument `priority` is "urgent"; expected one of low, normal, high.',
        field: 'priority',
        expected: 'one of low, normal, high',
        retryable: false,
        changed: 2,
        correlationId: 'c_abcdefghijklmnopqr',
      },
    ];
    for (const f of samples) {
      const back = decodeFailure(JSON.parse(JSON.stringify(encodeFailure(f))));
      const { received: _received, ...rest } = f;
      expect(back).toEqual(rest);
    }
  });

  it('returns undefined for successes, foreign errors and malformed meta', () => {
    expect(decodeFailure({ content: [{ type: 'text', text: 'ok' }] })).toBeUndefined();
    expect(decodeFailure({ isError: true, content: [{ type: 'text', text: 'boom' }] })).toBeUndefined();
    expect(
      decodeFailure({
        isError: true,
        content: [],
        _meta: { [FAILURE_META_KEY]: { category: 'nope', code: 'X' } },
      }),
    ).toBeUndefined();
    expect(
      decodeFailure({ isError: false, _meta: encodeFailure(rateLimited({ retryAfterMs: 1 }).failure)._meta }),
    ).toBeUndefined();
    expect(decodeFailure(null)).toBeUndefined();
    expect(decodeFailure('isError')).toBeUndefined();
  });

  it('tolerates extra keys and falls back to the text when the meta has no message', () => {
    const decoded = decodeFailure({
      isError: true,
      content: [{ type: 'text', text: 'Slow down.' }],
      _meta: {
        'io.modelcontextprotocol/serverInfo': { name: 'x', version: '1' },
        [FAILURE_META_KEY]: {
          category: 'rate_limit',
          code: 'RATE_LIMITED',
          retryable: true,
          changed: false,
          retryAfterMs: 10,
          extra: 1,
        },
      },
    });
    expect(decoded).toEqual({
      category: 'rate_limit',
      code: 'RATE_LIMITED',
      message: 'Slow down.',
      retryable: true,
      changed: false,
      retryAfterMs: 10,
    });
  });
});
