import { describe, expect, it } from 'vitest';
import { durationFlag, integerFlag, parseCommand } from './parse.ts';

describe('CLI parsing', () => {
  it('parses durations in seconds, minutes, hours and days', () => {
    expect(durationFlag('x', '--expires-in', '90s')).toBe(90_000);
    expect(durationFlag('x', '--expires-in', '45m')).toBe(2_700_000);
    expect(durationFlag('x', '--expires-in', '12h')).toBe(43_200_000);
    expect(durationFlag('x', '--expires-in', '30d')).toBe(2_592_000_000);
    for (const bad of ['0d', '30', 'd', '-1d', '1.5h', '30 d']) {
      expect(() => durationFlag('x', '--expires-in', bad)).toThrow(/expected a duration like 30d/);
    }
  });

  it('parses bounded whole numbers', () => {
    expect(integerFlag('serve', '--port', '0', 0, 65535)).toBe(0);
    expect(() => integerFlag('serve', '--port', '65536', 0, 65535)).toThrow(/from 0 to 65535/);
    expect(() => integerFlag('serve', '--port', '1e3', 0, 65535)).toThrow(/"1e3"/);
  });

  it('refuses unknown flags, missing values and extra arguments in one line naming --help', () => {
    expect(() => parseCommand('log', ['--nope'], {})).toThrow(/^recourse-board log: .*--nope.*log --help/);
    expect(() => parseCommand('log', ['--limit'], { limit: { type: 'string' } })).toThrow(/--limit/);
    expect(() => parseCommand('tokens revoke', ['a', 'b'], {}, 1)).toThrow(/unexpected argument "b"/);
    expect(parseCommand('log', ['-h'], {}).values['help']).toBe(true);
  });
});
