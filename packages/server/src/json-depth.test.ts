import { describe, expect, it } from 'vitest';
import { jsonDepth } from './json-depth.ts';

describe('jsonDepth', () => {
  it('counts nested arrays and objects', () => {
    expect(jsonDepth('1', 64)).toBe(0);
    expect(jsonDepth('{"a":[1,{"b":[]}]}', 64)).toBe(4);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepth('{"a":"[[[{{{\\"[[["}', 64)).toBe(1);
  });

  it('stops counting one past the limit, whatever the real depth', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(jsonDepth(deep, 64)).toBe(65);
  });
});
