/**
 * The benchmark harness runs at all: one short round of two configurations, no memory phase. It asserts that
 * the tables are printed with figures, never how fast anything is.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

/** `npm run bench` with `args`, quick, one round, no memory phase and no PostgreSQL; resolves with its stdout. */
async function bench(args: string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'bench/run.ts', '--quick', '--rounds', '1', '--no-memory', ...args],
    { timeout: 120_000, env: { ...process.env, BENCH_SKIP_POSTGRES: '1' } },
  );
  return stdout;
}

describe('npm run bench', () => {
  it('prints the ratio and figure tables for a one-round quick run', async () => {
    const stdout = await bench(['--only', 'stdio-2026/floor']);
    expect(stdout).toContain('### Ratios');
    expect(stdout).toMatch(/\| stdio-2026 \| bare SDK echo ÷ floor \(×\) \| \d+\.\d\d/);
    expect(stdout).toMatch(/\| stdio-2026 \| floor: NDJSON over a pipe \| \d+ \|/);
  }, 150_000);

  it('reads the client overhead from the paired phase, pooled over its processes, with the confidence interval of its median', async () => {
    // Eight rounds: six in one process and two in another, whose samples are pooled.
    const stdout = await bench(['--only', 'stdio-2026/echo-recourse', '--pair-rounds', '8']);
    expect(stdout).toContain(
      'then 8 rounds of the paired phase (the two sides of each cost and overhead comparison back to back in processes of their own, at most 6 rounds each',
    );
    expect(stdout).toMatch(
      /\| stdio-2026 \| @recourse\/client overhead on bare SDK echo \(paired\) \| -?\d+\.\d % \[-?\d+\.\d % … -?\d+\.\d %\] \(/,
    );
    expect(stdout).toMatch(/\| stdio-2026 \| bare SDK echo, @recourse\/client \| \d+ \|/);
  }, 150_000);
});
