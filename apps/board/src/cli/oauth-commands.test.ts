import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './main.ts';
import { captureIo } from './cli-testing.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'recourse-cli-oauth-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function addMember(dir: string, kind: string): Promise<string> {
  const io = captureIo();
  expect(
    await runCli(
      ['members', 'add', '--name', 'Ada', '--kind', kind, '--role', 'owner', '--data-dir', dir],
      io,
    ),
  ).toBe(0);
  return io.outLines[0] ?? '';
}

describe('recourse-board sign-in commands', () => {
  it('sets a password from RECOURSE_PASSWORD or stdin, refusing short ones and assistants', async () => {
    const dir = tempDir();
    const person = await addMember(dir, 'person');
    const ok = captureIo({ RECOURSE_PASSWORD: 'a long enough password' });
    expect(await runCli(['members', 'password', person, '--data-dir', dir], ok)).toBe(0);
    expect(ok.outLines[0]).toMatch(/^Password set for m_/);

    const piped = { ...captureIo(), readStdin: () => Promise.resolve('another long password\n') };
    expect(await runCli(['members', 'password', person, '--data-dir', dir], piped)).toBe(0);

    const short = captureIo({ RECOURSE_PASSWORD: 'short' });
    expect(await runCli(['members', 'password', person, '--data-dir', dir], short)).toBe(1);
    expect(short.errLines[0]).toMatch(/5 characters; use at least 12\. Nothing was changed\./);

    const none = captureIo();
    expect(await runCli(['members', 'password', person, '--data-dir', dir], none)).toBe(2);
    expect(none.errLines[0]).toMatch(/never pass it as an argument/);

    const assistant = await addMember(dir, 'assistant');
    const refused = captureIo({ RECOURSE_PASSWORD: 'a long enough password' });
    expect(await runCli(['members', 'password', assistant, '--data-dir', dir], refused)).toBe(1);
    expect(refused.errLines[0]).toMatch(/is an assistant; only people sign in/);
  });

  it('prints a one-time sign-in link for the given board URL', async () => {
    const dir = tempDir();
    const person = await addMember(dir, 'person');
    const io = captureIo();
    expect(
      await runCli(
        ['members', 'signin-link', person, '--url', 'http://localhost:4444', '--data-dir', dir],
        io,
      ),
    ).toBe(0);
    expect(io.outLines[0]).toMatch(/^http:\/\/localhost:4444\/signin\?code=rbl_[A-Za-z0-9_-]{43}$/);
    expect(io.errLines[0]).toMatch(/Works once, until/);
  });

  it('lists no grants on a fresh board and refuses to revoke an unknown one', async () => {
    const dir = tempDir();
    const list = captureIo();
    expect(await runCli(['grants', 'list', '--data-dir', dir], list)).toBe(0);
    expect(list.outLines).toEqual([]);
    const revoke = captureIo();
    expect(await runCli(['grants', 'revoke', 'nope', '--data-dir', dir], revoke)).toBe(1);
    expect(revoke.errLines[0]).toMatch(/No active grant has id "nope".*grants list.*nothing was changed/);
  });
});
