import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createBoardServer } from '@recourse/board';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBoard } from '../apps/board/src/testing/board-host.ts';
import type { TestBoard } from '../apps/board/src/testing/board-host.ts';

const BIN = fileURLToPath(new URL('../packages/client/bin/recourse.mjs', import.meta.url));

function recourse(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

let board: TestBoard;
beforeAll(async () => {
  board = await startTestBoard();
});
afterAll(async () => {
  await board.close();
});

describe('recourse call against the board', () => {
  it('prints a success, a not_found failure and an unknown-tool protocol error with distinct exit codes', async () => {
    const token = board.tokens.contributor;
    const [success, missing, unknown] = await Promise.all([
      recourse('call', board.url, 'whoami', '--token', token),
      recourse('call', board.url, 'tasks_get', '{"ref":"T-999"}', '--token', token),
      recourse('call', board.url, 'tasks_frobnicate', '{}', '--token', token),
    ]);

    expect(success.code).toBe(0);
    expect(success.stdout).toContain(board.members.contributor.name);
    expect(success.stderr).toBe('');

    expect(missing.code).toBe(3);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^tool failure: not_found TASK_NOT_FOUND\n/);
    expect(missing.stderr).toContain('T-999');
    expect(missing.stderr).toMatch(/attempt 1: tool_failure TASK_NOT_FOUND \(not_found\)/);

    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/^protocol error -32602/);
    expect(unknown.stderr).toContain('tasks_frobnicate');

    expect(new Set([success.code, missing.code, unknown.code]).size).toBe(3);
  });

  it('prints the classified failure as JSON and exits with its code', async () => {
    const result = await recourse(
      'call',
      board.url,
      'tasks_get',
      '{"ref":"T-999"}',
      '--token',
      board.tokens.viewer,
      '--json',
    );
    expect(result.code).toBe(3);
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toMatchObject({
      ok: false,
      error: { kind: 'tool', category: 'not_found', failure: { code: 'TASK_NOT_FOUND', retryable: false } },
    });
    expect(parsed.attempts).toHaveLength(1);
  });
});

describe('recourse call --stdio against the board', () => {
  it('starts the board as a child process, passes the environment on, and prints the result', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'recourse-cli-stdio-'));
    try {
      const seeded = createBoardServer({ dataDir, logger: pino({ level: 'silent' }) });
      const member = await seeded.services.members.add({
        name: 'Piper',
        kind: 'assistant',
        role: 'contributor',
      });
      const { token } = await seeded.services.tokens.create(member.id);
      await seeded.close();
      const boardBin = fileURLToPath(new URL('../apps/board/bin/recourse-board.mjs', import.meta.url));
      const command = `"${process.execPath}" "${boardBin}" stdio --data-dir "${dataDir}"`;
      const run = (args: string[]) =>
        new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
          execFile(
            process.execPath,
            [BIN, 'call', '--stdio', command, ...args],
            { timeout: 30_000, env: { ...process.env, RECOURSE_TOKEN: token } },
            (error, stdout, stderr) =>
              resolve({
                code: error ? (typeof error.code === 'number' ? error.code : -1) : 0,
                stdout,
                stderr,
              }),
          );
        });
      const whoami = await run(['whoami']);
      expect(whoami.code).toBe(0);
      expect(whoami.stdout).toContain('Piper');
      const missing = await run(['tasks_get', '{"ref":"T-404"}']);
      expect(missing.code).toBe(3);
      expect(missing.stderr).toMatch(/^tool failure: not_found TASK_NOT_FOUND/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
