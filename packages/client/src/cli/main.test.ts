import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultServer } from '../testing/index.ts';
import type { FaultServer } from '../testing/index.ts';
import { parseArgs, splitCommand } from './args.ts';
import { run } from './main.ts';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(async () => {
  await server.close();
});

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(argv, {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
    env: {},
  });
  return { code, out, err };
}

describe('recourse call', () => {
  it('prints a success and exits 0', async () => {
    const { code, out } = await cli('call', server.url, 'echo', '{"text":"hello"}');
    expect(code).toBe(0);
    expect(out).toBe('hello\n');
  });

  it('prints a tool failure with its category and attempt log and exits 3', async () => {
    server.inject('echo', { kind: 'tool_failure', category: 'not_found', code: 'THING_NOT_FOUND' });
    const { code, out, err } = await cli('call', server.url, 'echo', '{"text":"x"}');
    expect(code).toBe(3);
    expect(out).toBe('');
    expect(err).toMatch(/^tool failure: not_found THING_NOT_FOUND\n/);
    expect(err).toMatch(/attempt 1: tool_failure THING_NOT_FOUND \(not_found\)/);
  });

  it('exits 4 on a protocol error, 5 on a timeout and 8 on an ambiguous drop', async () => {
    expect((await cli('call', server.url, 'nope')).code).toBe(4);
    server.inject('echo', { kind: 'hang' });
    const timeout = await cli('call', server.url, 'echo', '{"text":"x"}', '--timeout', '200');
    expect(timeout.code).toBe(5);
    expect(timeout.err).toMatch(/local failure: timeout/);
    server.inject('record', { kind: 'drop_after' });
    expect((await cli('call', server.url, 'record', '{"note":"n"}')).code).toBe(8);
  });

  it('prints JSON with --json', async () => {
    server.inject(
      'echo',
      { kind: 'tool_failure', category: 'transient' },
      { kind: 'tool_failure', category: 'transient' },
    );
    const { code, out } = await cli('call', server.url, 'echo', '{"text":"json"}', '--json');
    expect(code).toBe(0);
    const parsed = JSON.parse(out);
    expect(parsed.ok).toBe(true);
    expect(parsed.attempts.map((a: { outcome: string }) => a.outcome)).toEqual([
      'tool_failure',
      'tool_failure',
      'ok',
    ]);
  });

  it('exits 7 when nothing listens', async () => {
    const gone = await startFaultServer();
    await gone.close();
    const { code, err } = await cli('call', gone.url, 'echo', '{}', '--protocol', 'legacy', '--retries', '0');
    expect(code).toBe(7);
    expect(err).toMatch(/local failure: transport/);
  });

  it('refuses bad usage with exit 2 and one line', async () => {
    for (const argv of [
      ['call'],
      ['call', server.url, 'echo', 'not json'],
      ['call', server.url, 'echo', '--timeout', 'soon'],
      ['call', server.url, 'echo', '--bogus'],
      ['frobnicate'],
    ]) {
      const { code, err } = await cli(...argv);
      expect(code).toBe(2);
      expect(err.trim().split('\n')).toHaveLength(1);
    }
    expect((await cli('--help')).out).toMatch(/recourse <command>/);
    expect((await cli('call', '--help')).out).toMatch(/Exit codes:/);
  });

  it('runs as a binary', async () => {
    const bin = fileURLToPath(new URL('../../bin/recourse.mjs', import.meta.url));
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [bin, 'call', server.url, 'echo', '{"text":"from the bin"}'],
        { timeout: 20_000 },
        (error, stdout) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }),
      );
    });
    expect(result).toEqual({ code: 0, stdout: 'from the bin\n' });
  });
});

describe('argument parsing', () => {
  it('splits a stdio command and reads the token from the environment', () => {
    expect(splitCommand(`node "my server.js" --flag 'a b'`)).toEqual([
      'node',
      'my server.js',
      '--flag',
      'a b',
    ]);
    const parsed = parseArgs(['call', '--stdio', 'node server.js', 'whoami'], {});
    expect(parsed).toMatchObject({
      kind: 'call',
      command: { target: { stdio: { command: 'node', args: ['server.js'] } }, tool: 'whoami' },
    });
    const withToken = parseArgs(['call', 'http://127.0.0.1:9/mcp', 'whoami'], { RECOURSE_TOKEN: 'secret' });
    expect(withToken).toMatchObject({ kind: 'call', command: { target: { token: 'secret' } } });
  });
});
