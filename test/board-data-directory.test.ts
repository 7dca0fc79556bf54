/**
 * A data directory that knows it holds a board, through the real `recourse-board` binary: a missing, unreadable
 * or damaged database is reported at start (exit 1, one paragraph, no stack), with no new owner or token; a
 * database deleted while the board serves refuses every call and is rescued; `backup` and the documented restore
 * lose nothing the backup holds.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import { createBoardServer } from '../apps/board/src/board-server.ts';
import { principalOf } from '../apps/board/src/testing/board-fixture.ts';
import { localWriteContext } from '../apps/board/src/services/write-context.ts';
import { BOARD_BIN } from '../apps/board/src/testing/stdio-client.ts';
import { CLI_ENV, startServe, type ServeProcess } from '../apps/board/src/testing/serve-process.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'recourse-board-datadir-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function cli(...args: string[]) {
  const result = spawnSync(process.execPath, [BOARD_BIN, ...args], {
    encoding: 'utf8',
    timeout: 30_000,
    env: CLI_ENV,
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** A board in a fresh directory with one owner and the given task titles; returns the directory. */
async function seededBoard(titles: readonly string[]): Promise<string> {
  const dataDir = join(tempDir(), 'data');
  const board = createBoardServer({ dataDir, logger: pino({ level: 'silent' }) });
  const owner = await board.services.members.add({ name: 'Owner', kind: 'person', role: 'owner' });
  const ctx = localWriteContext(principalOf(owner));
  for (const title of titles) await board.services.tasks.create(ctx, { title });
  await board.close();
  return dataDir;
}

async function titlesIn(dataDir: string): Promise<string[]> {
  const board = createBoardServer({ dataDir, logger: pino({ level: 'silent' }) });
  try {
    const owner = (await board.services.members.list())[0];
    if (owner === undefined) return [];
    const found = await board.services.tasks.search({ limit: 100, offset: 0 });
    return found.tasks.map((t) => t.title).sort();
  } finally {
    await board.close();
  }
}

/** Starts `serve` expecting a refusal: exit code 1, one paragraph on stderr, no owner token on stdout. */
function refusedStart(dataDir: string): string {
  const result = cli('serve', '--port', '0', '--data-dir', dataDir);
  expect(result.code).toBe(1);
  expect(result.out).not.toContain('First start');
  expect(result.out).not.toMatch(/rbt_/);
  const err = result.err.trim();
  expect(err.split('\n')).toHaveLength(1);
  expect(err).not.toMatch(/\bat .+:\d+:\d+/);
  expect(err).toContain('Restore the board from a backup');
  expect(err).toContain('no new owner was created');
  return err;
}

async function call(serve: ServeProcess, token: string, name: string, args: Record<string, unknown>) {
  const client = new Client({ name: 'datadir-e2e', version: '0.0.1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(serve.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  try {
    return await client.callTool({ name, arguments: args });
  } finally {
    await client.close();
  }
}
const textOf = (result: unknown): string =>
  ((result as { content?: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join(' ');

// Each test spawns the binary several times; on a loaded machine that takes well over the default 30 s.
describe('a data directory that knows it holds a board', { timeout: 180_000 }, () => {
  it('refuses to start over a deleted database, creating no owner', () => {
    return seededBoard(['Keep me']).then((dataDir) => {
      rmSync(join(dataDir, 'board.sqlite'));
      expect(refusedStart(dataDir)).toContain('board.sqlite is missing');
      expect(existsSync(join(dataDir, 'board.sqlite'))).toBe(false);
    });
  });

  it('refuses an unreadable database', async () => {
    const dataDir = await seededBoard(['Keep me']);
    const file = join(dataDir, 'board.sqlite');
    if (process.getuid?.() === 0) {
      // root reads any file whatever its mode; a directory in the database's place cannot be read as one.
      renameSync(file, `${file}.moved`);
      mkdirSync(file);
    } else {
      chmodSync(file, 0o000);
    }
    expect(refusedStart(dataDir)).toMatch(
      /board\.sqlite cannot be opened \((EACCES|it is not a regular file)/,
    );
  });

  it('backs up while serving, reports the damaged database, and the documented restore brings every task back', async () => {
    const dataDir = await seededBoard(['First task', 'Second task']);
    const serve = await startServe(dataDir, false);
    const backupFile = join(tempDir(), 'board-backup.sqlite');
    const backup = cli('backup', backupFile, '--data-dir', dataDir);
    expect(backup.err).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.out).toContain('1 members, 2 tasks');
    expect(cli('backup', backupFile, '--data-dir', dataDir).code).toBe(2);
    expect(await serve.stop()).toBe(0);

    const file = join(dataDir, 'board.sqlite');
    const bytes = readFileSync(file);
    bytes.fill(0x5a, 100, bytes.length);
    writeFileSync(file, bytes);
    expect(refusedStart(dataDir)).toMatch(/board\.sqlite (is damaged|cannot be read as a SQLite database)/);

    // The restore, as "recourse-board backup --help" describes it.
    renameSync(dataDir, `${dataDir}.broken`);
    mkdirSync(dataDir);
    cpSync(backupFile, join(dataDir, 'board.sqlite'));
    const restored = await startServe(dataDir, false);
    expect(restored.lines().join('\n')).not.toContain('First start');
    expect(await restored.stop()).toBe(0);
    expect(await titlesIn(dataDir)).toEqual(['First task', 'Second task']);
  });

  it('refuses every call once the data directory is deleted while serving, rescues its data, and will not start over', async () => {
    const dataDir = join(tempDir(), 'data');
    const serve = await startServe(dataDir, true);
    const token = serve.lines().find((l) => /^rbt_/.test(l)) ?? '';
    expect(textOf(await call(serve, token, 'tasks_create', { title: 'Written before' }))).toContain('T-1');

    rmSync(dataDir, { recursive: true, force: true });
    const refused = await call(serve, token, 'tasks_create', { title: 'Written after' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('was deleted or replaced while the board was running');
    expect(textOf(refused)).toContain('Nothing was changed');
    expect(await serve.stop()).toBe(1);
    expect(serve.stderr()).toContain('DATABASE_FILE_GONE');

    const rescued = readdirSync(dataDir).filter((n) => n.startsWith('board.sqlite.rescued-'));
    expect(rescued).toHaveLength(1);
    expect(serve.stderr()).toContain(`What the board held was saved to ${join(dataDir, rescued[0] ?? '')}`);
    expect(refusedStart(dataDir)).toContain(rescued[0]);

    renameSync(join(dataDir, rescued[0] ?? ''), join(dataDir, 'board.sqlite'));
    expect(await titlesIn(dataDir)).toEqual(['Written before']);
  });
});
