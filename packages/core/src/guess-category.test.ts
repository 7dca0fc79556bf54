import { describe, expect, it } from 'vitest';
import { guessCategory } from './guess-category.ts';

describe('guessCategory', () => {
  const result = (text: string) => ({ isError: true, content: [{ type: 'text', text }] });
  it.each([
    ['Task 42 not found', 'not_found'],
    ['Rate limit exceeded', 'rate_limit'],
    ['Too many requests, slow down', 'rate_limit'],
    ['Upstream timeout after 30s', 'transient'],
    ['Service unavailable', 'transient'],
    ['Forbidden: admins only', 'permission'],
    ['You do not have permission to do that', 'permission'],
    ['This action is not allowed', 'permission'],
    ['Input validation error: expected string, received number', 'validation'],
    ['Invalid date', 'validation'],
    ['Something broke', 'internal'],
    ['HTTP 503 from the upstream', 'transient'],
    ['Upstream answered status 429', 'rate_limit'],
    ['HTTP/1.1 403 from the gateway', 'permission'],
    ['status code: 404', 'not_found'],
    ['status=409 on save', 'conflict'],
    ['502 Bad Gateway', 'transient'],
    ['Error 503', 'transient'],
    ['Request failed with status code 503', 'transient'],
    // numbers that are ids, not HTTP statuses
    ['Task T-503 not found', 'not_found'],
    ['Issue #429 not found', 'not_found'],
    ['Order 403 does not exist', 'not_found'],
    ['Ticket 502 was closed by its owner', 'internal'],
    // refusals that mention retrying or a word like timeout stay what they are
    ['Argument `timeout` must be a positive number of milliseconds.', 'validation'],
    ['You lack the tasks:delete permission; ask an owner, then try again.', 'permission'],
    ['The title is required. Fix the argument and try again.', 'validation'],
    ['Record R-7 already exists; try again with another id.', 'conflict'],
    // the common transient shapes
    ['connection to db-7.internal:5432 refused', 'transient'],
    ['Connection reset by peer', 'transient'],
    ['The upstream is temporarily unavailable', 'transient'],
    ['Request timed out after 30000 ms', 'transient'],
    ['Something went wrong, please try again', 'transient'],
  ] as const)('reads %j as %s', (text, category) => {
    expect(guessCategory(result(text))).toBe(category);
  });
  it('accepts a bare string and results without text', () => {
    expect(guessCategory('not found')).toBe('not_found');
    expect(guessCategory({ isError: true, content: [] })).toBe('internal');
  });
});

describe('guessCategory on real SDK texts', () => {
  it('reads the SDK input-validation text as validation and an output-schema failure too', () => {
    const text =
      'Input validation error: Invalid arguments for tool echo: text: Invalid input: expected string, received number';
    expect(guessCategory({ isError: true, content: [{ type: 'text', text }] })).toBe('validation');
  });
  it('reads a plain thrown error text as internal', () => {
    expect(guessCategory({ isError: true, content: [{ type: 'text', text: 'plain boom' }] })).toBe(
      'internal',
    );
  });
});
