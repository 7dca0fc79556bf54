/**
 * docs/operating.md is run, not just read: every shell command in it is one the tests run (the scale tests run
 * the member, token, serve and HAProxy commands and its HAProxy configuration), and here its backup and restore
 * commands bring a board back with its tasks, tokens and schema.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createPgBoardServer } from '../apps/board/src/board-server.pg.ts';
import { localWriteContext } from '../apps/board/src/services/write-context.ts';
import { principalOf } from '../apps/board/src/testing/board-fixture.ts';
import { startTempPostgres, type TempPostgres } from './support/temp-postgres.ts';
import { debianPostgresBinaries } from './support/debian-postgres.ts';
import { docCommand, docCommands, EXERCISED_COMMANDS } from './scale/operating-doc.ts';

const run = promisify(execFile);
let postgres: TempPostgres;
let dir: string;
let bin: string;

beforeAll(async () => {
  // pg_dump refuses a server of a newer major version: server and tools both come from Debian's packages here.
  const binaries = await debianPostgresBinaries();
  bin = binaries.bin;
  postgres = await startTempPostgres(binaries);
  dir = mkdtempSync(join(tmpdir(), 'recourse-backup-'));
});
afterAll(async () => {
  await postgres.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('docs/operating.md', () => {
  it('gives only commands the tests run, and each of them once', () => {
    const commands = docCommands();
    for (const command of commands) {
      expect(
        EXERCISED_COMMANDS.some((prefix) => command.startsWith(prefix)),
        command,
      ).toBe(true);
    }
    for (const prefix of EXERCISED_COMMANDS) expect(docCommand(prefix).length).toBeGreaterThan(1);
  });

  it('backs a board up with pg_dump and restores it with pg_restore: tasks, tokens and schema come back', async () => {
    const source = await postgres.freshDatabaseUrl();
    const target = await postgres.freshDatabaseUrl();
    const silent = pino({ level: 'silent' });
    const board = await createPgBoardServer({ databaseUrl: source, logger: silent });
    let token: string;
    try {
      const member = await board.services.members.add({
        name: 'Backup owner',
        kind: 'person',
        role: 'owner',
      });
      token = (await board.services.tokens.create(member.id)).token;
      const actor = localWriteContext(principalOf(member));
      for (let i = 0; i < 3; i += 1)
        await board.services.tasks.create(actor, { title: `Backed up ${String(i)}` });
    } finally {
      await board.close();
    }
    const file = join(dir, 'board.dump');
    const vars = {
      'board.dump': file,
      $DATABASE_URL: source,
      $RESTORE_URL: target,
      pg_dump: join(bin, 'pg_dump'),
      pg_restore: join(bin, 'pg_restore'),
    };
    const [dump, ...dumpArgs] = docCommand('pg_dump', vars);
    await run(dump ?? '', dumpArgs, { timeout: 120_000 });
    const [restore, ...restoreArgs] = docCommand('pg_restore', vars);
    await run(restore ?? '', restoreArgs, { timeout: 120_000 });

    const restored = await createPgBoardServer({ databaseUrl: target, logger: silent });
    try {
      for (const check of restored.readiness) await check.check(AbortSignal.timeout(5000));
      expect(await restored.services.store.countTasks()).toBe(3);
      expect(await restored.verifier.verify(token)).toMatchObject({ ok: true });
    } finally {
      await restored.close();
    }
  });
});
