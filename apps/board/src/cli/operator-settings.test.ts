import { describe, expect, it } from 'vitest';
import { OPERATOR_SETTINGS, readOperatorSettings } from './operator-settings.ts';
import { boardOptionsOf, httpOptionsOf } from './operator-options.ts';
import { UsageError } from './usage-error.ts';

describe('operator settings', () => {
  it('reads every setting from its flag, checked and converted', () => {
    const settings = readOperatorSettings(
      'serve',
      {
        'rate-limit': '600',
        'rate-limit-roles': 'owner=1000,viewer=30',
        'rate-limit-kinds': 'assistant=60',
        'rate-limit-window': '30s',
        deadline: '2500ms',
        'task-lease': '5s',
        'import-timeout': '1500ms',
        'max-json-depth': '32',
        'max-body-bytes': '2048',
        'request-timeout': '45s',
        'max-batch': '4',
        'max-connections': '256',
        'flood-limit': 'off',
        'allowed-hosts': 'board.example.com, board.example.com:8443',
        'allowed-origins': 'https://board.example.com',
        'public-url': 'https://board.example.com/mcp',
      },
      {},
    );
    expect(boardOptionsOf(settings)).toEqual({
      rateLimit: {
        defaultPerMinute: 600,
        perRole: { owner: 1000, viewer: 30 },
        perKind: { assistant: 60 },
        windowMs: 30_000,
      },
      defaultDeadlineMs: 2500,
      tasks: { leaseMs: 5000 },
      importSource: { timeoutMs: 1500 },
    });
    expect(httpOptionsOf(settings)).toEqual({
      maxBodyBytes: 2048,
      maxJsonDepth: 32,
      requestTimeoutMs: 45_000,
      maxBatchMessages: 4,
      maxConnections: 256,
      flood: false,
      publicUrl: 'https://board.example.com/mcp',
      alsoAllowedHosts: ['board.example.com', 'board.example.com:8443', 'board.example.com'],
      alsoAllowedOrigins: ['https://board.example.com', 'https://board.example.com'],
    });
  });

  it('takes the environment variable when the flag is absent, and the flag over it', () => {
    const env = { RECOURSE_RATE_LIMIT: '50', RECOURSE_DEADLINE: '3s', RECOURSE_FLOOD_LIMIT: '100' };
    expect(readOperatorSettings('serve', {}, env)).toMatchObject({
      rateLimit: 50,
      deadlineMs: 3000,
      floodLimit: 100,
    });
    expect(readOperatorSettings('serve', { 'rate-limit': '70' }, env).rateLimit).toBe(70);
  });

  it('leaves unset settings to the defaults', () => {
    const settings = readOperatorSettings('serve', {}, {});
    expect(boardOptionsOf(settings)).toEqual({});
    expect(httpOptionsOf(settings)).toEqual({ alsoAllowedHosts: [], alsoAllowedOrigins: [] });
  });

  it('gives stdio the limits that apply to it and no HTTP ones', () => {
    const stdioFlags = OPERATOR_SETTINGS.filter((s) => s.commands.includes('stdio')).map((s) => s.flag);
    expect(stdioFlags).toContain('rate-limit');
    expect(stdioFlags).not.toContain('flood-limit');
    expect(readOperatorSettings('stdio', {}, { RECOURSE_FLOOD_LIMIT: 'bogus' })).toEqual({});
  });

  it.each([
    ['rate-limit', '0', '--rate-limit is "0"; expected a whole number from 1 to 1000000.'],
    ['rate-limit', '1e3', '--rate-limit is "1e3"; expected a whole number from 1 to 1000000.'],
    ['rate-limit-roles', 'god=5', 'expected comma-separated NAME=CALLS pairs with NAME one of owner'],
    ['rate-limit-kinds', 'assistant=-1', 'NAME one of person, assistant'],
    ['rate-limit-window', '1500ms', 'expected a duration like 10s or 2m, from 1s to 1h.'],
    ['deadline', '20m', '--deadline is "20m"; expected a duration like 500ms, 10s or 2m, from 100ms to 10m.'],
    ['max-json-depth', '100000', 'expected a whole number from 8 to 1000.'],
    ['max-body-bytes', '10', 'expected a whole number from 1024 to 67108864.'],
    ['max-batch', '0', 'expected a whole number from 1 to 1000.'],
    ['max-connections', '8', 'expected a whole number from 16 to 65536.'],
    ['flood-limit', 'none', 'expected a whole number from 10 to 1000000.'],
    ['allowed-hosts', 'https://x', 'expected comma-separated host names'],
    ['allowed-origins', 'board.example.com', 'expected comma-separated origins'],
    ['public-url', 'board.example.com', 'expected an http or https URL with a path'],
  ])('refuses --%s %j in one line naming the flag and what is accepted', (flag, value, text) => {
    let caught: unknown;
    try {
      readOperatorSettings('serve', { [flag]: value }, {});
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    const message = (caught as Error).message;
    expect(message).toMatch(new RegExp(`^recourse-board serve: --${flag} is `));
    expect(message).toContain(text);
    expect(message).not.toContain('\n');
  });

  it('names the environment variable when that is where the bad value came from', () => {
    expect(() => readOperatorSettings('stdio', {}, { RECOURSE_DEADLINE: 'soon' })).toThrow(
      /^recourse-board stdio: RECOURSE_DEADLINE is "soon"; expected a duration/,
    );
  });
});
