import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './main.ts';
import { captureIo } from './cli-testing.ts';
import { HELP } from './help.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'recourse-cli-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('recourse-board CLI', () => {
  it.each(Object.keys(HELP).filter((k) => k !== ''))(
    'prints help for "%s --help" and exits 0',
    async (path) => {
      const io = captureIo();
      expect(await runCli([...path.split(' '), '--help'], io)).toBe(0);
      expect(io.outLines.join('\n')).toBe(HELP[path]);
      expect(io.errLines).toEqual([]);
    },
  );

  it('prints the overview for --help and for no command', async () => {
    for (const argv of [['--help'], [], ['help']]) {
      const io = captureIo();
      expect(await runCli(argv, io)).toBe(0);
      expect(io.outLines.join('\n')).toContain('Commands:');
    }
  });

  it.each([
    [['serve', '--bogus']],
    [['serve', '--port', '99999']],
    [['serve', '--port', 'abc']],
    [['members', 'add', '--name', 'A', '--kind', 'robot', '--role', 'owner']],
    [['members', 'add', '--name', 'A', '--kind', 'person', '--role', 'god']],
    [['members', 'add', '--kind', 'person', '--role', 'viewer']],
    [['members', 'role', 'm_abcd1234']],
    [['members', 'explode']],
    [['tokens', 'create', '--member', 'm_abcd1234', '--expires-in', '3 weeks']],
    [['tokens', 'create']],
    [['tokens', 'revoke', 'a', 'b']],
    [['log', '--limit', '0']],
    [['log', '--tool']],
    [['frobnicate']],
    [['stdio', '--deadline', 'soon']],
  ])('refuses %j with one line on stderr and exit code 2', async (argv) => {
    const io = captureIo({}, tempDir());
    expect(await runCli(argv, io)).toBe(2);
    expect(io.errLines).toHaveLength(1);
    expect(io.errLines[0]).toMatch(/^recourse-board/);
    expect(io.outLines).toEqual([]);
  });

  it('adds members, changes roles, creates and revokes tokens, and reports failures with exit 1', async () => {
    const cwd = tempDir();
    const run = async (...argv: string[]) => {
      const io = captureIo({}, cwd);
      const code = await runCli(argv, io);
      return { code, out: io.outLines, err: io.errLines };
    };
    const added = await run('members', 'add', '--name', 'Ada', '--kind', 'person', '--role', 'owner');
    expect(added.code).toBe(0);
    const id = added.out[0] ?? '';
    expect(id).toMatch(/^m_[a-z0-9]+$/);
    const bot =
      (await run('members', 'add', '--name', 'Bot', '--kind', 'assistant', '--role', 'viewer')).out[0] ?? '';
    expect((await run('members', 'role', bot, 'contributor')).code).toBe(0);
    const listed = await run('members', 'list');
    expect(listed.out.find((l) => l.startsWith(bot))).toContain('contributor');

    const created = await run('tokens', 'create', '--member', bot, '--expires-in', '30d');
    expect(created.code).toBe(0);
    expect(created.out).toHaveLength(1);
    const token = created.out[0] ?? '';
    expect(token).toMatch(/^rbt_/);
    expect(created.err.join(' ')).toMatch(/shown only this once/);
    const tokens = await run('tokens', 'list');
    expect(tokens.out.join('\n')).not.toContain(token);
    expect((await run('tokens', 'revoke', token.slice(0, 10))).code).toBe(0);
    expect((await run('tokens', 'list')).out.join('\n')).toContain('revoked');

    const demote = await run('members', 'role', id, 'viewer');
    expect(demote.code).toBe(1);
    expect(demote.err).toHaveLength(1);
    expect(demote.err[0]).toContain('last active owner');
    const unknown = await run('tokens', 'create', '--member', 'm_nobody99');
    expect(unknown.code).toBe(1);
    expect(unknown.err[0]).toContain('m_nobody99');
  });

  it('reads the data directory from RECOURSE_DATA_DIR when --data-dir is absent', async () => {
    const cwd = tempDir();
    const io = captureIo({ RECOURSE_DATA_DIR: 'elsewhere' }, cwd);
    expect(await runCli(['members', 'add', '--name', 'E', '--kind', 'person', '--role', 'viewer'], io)).toBe(
      0,
    );
    const list = captureIo({}, cwd);
    await runCli(['members', 'list', '--data-dir', join(cwd, 'elsewhere')], list);
    expect(list.outLines).toHaveLength(1);
  });
  it('says in one line on stderr that a stdio token is refused, serves on, and exits 1 when stopped', async () => {
    const cwd = tempDir();
    const io = captureIo({ RECOURSE_TOKEN: 'rbt_not-a-token' }, cwd);
    const running = runCli(['stdio'], io);
    for (let i = 0; i < 200 && io.errLines.length === 0; i += 1) await new Promise((r) => setTimeout(r, 50));
    io.stop();
    expect(await running).toBe(1);
    expect(io.errLines).toHaveLength(1);
    expect(io.errLines[0]).toMatch(/refused \(unknown\); every tool call will be refused/);
    expect(io.errLines[0]).not.toContain('rbt_not-a-token');
    expect(io.outLines).toEqual([]);
  });
});
