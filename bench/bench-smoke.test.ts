/**
 * The benchmark harness runs at all: one short round of two configurations, no memory phase. It asserts that
 * the tables are printed with figures, never how fast anything is.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('npm run bench', () => {
  it('prints the ratio and figure tables for a one-round quick run', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'bench/run.ts',
        '--quick',
        '--rounds',
        '1',
        '--only',
        'stdio-2026/floor',
        '--no-memory',
      ],
      { timeout: 120_000, env: { ...process.env, BENCH_SKIP_POSTGRES: '1' } },
    );
    expect(stdout).toContain('### Ratios');
    expect(stdout).toMatch(/\| stdio-2026 \| bare SDK echo ÷ floor \(×\) \| \d+\.\d\d/);
    expect(stdout).toMatch(/\| stdio-2026 \| floor: NDJSON over a pipe \| \d+ \|/);
  }, 150_000);
});
