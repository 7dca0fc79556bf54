/**
 * Vitest global setup: brings every package's `dist/` up to date (`tsc -b`, incremental, about a second when
 * nothing changed) before any test runs. In-process tests import the sources through the `recourse-source`
 * export condition; the tests that spawn `recourse`, `recourse-board` or `recourse-fault-server` run the
 * compiled CLIs exactly as an installed package does.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
}
