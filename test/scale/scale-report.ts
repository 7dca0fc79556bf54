/**
 * Prints a scale run's figures and checks the acceptance: nothing lost, nothing done twice, the rate limit
 * exact across instances, every answered call in the call log.
 */
import { expect } from 'vitest';
import type { ScaleFigures } from './scale-run.ts';

/** Formats the figures as the lines a person reads after `npm run test:scale`. */
export function describeFigures(f: ScaleFigures): string[] {
  const b = f.books;
  const perSecond = b.acknowledged.total / Math.max(1, f.loadMs / 1000);
  return [
    `acknowledged writes: ${String(b.acknowledged.total)} (creates ${String(b.acknowledged.create)}, updates ${String(b.acknowledged.update)}, comments ${String(b.acknowledged.comment)}) in ${(f.loadMs / 1000).toFixed(1)} s (${perSecond.toFixed(1)}/s), reads ${String(b.reads.ok)} ok / ${String(b.reads.failed)} failed`,
    `lost: ${String(b.lost.length)}, duplicated: ${String(b.duplicated.length)}, refused-but-changed: ${String(b.changedAfterAll.length)}, unclear to the caller: ${String(b.unknown)}, refused (nothing changed): ${String(b.failed)}, writes the client retried: ${String(f.retriedWrites)}`,
    `SIGKILL of instance 2 after ${String(f.killedAtWrites)} writes; ` +
      (f.restartExit === undefined
        ? 'no restart in this run'
        : `instance 3 drained (exit ${String(f.restartExit.code)}) and restarted after ${String(f.restartedAtWrites)} writes`),
    `rate probe: ${String(f.probe.ok)} ok, ${String(f.probe.refused)} refused (${String(f.probe.ok + f.probe.refused)} calls in 5 concurrent lanes by one member); calls per instance ${f.probe.perInstance.join('/')}`,
    `call log: ${String(b.answersLogged)} of ${String(b.answers)} answered calls logged (${String(b.callLogRows)} rows in all)`,
    `failures seen by clients: ${JSON.stringify(f.failures)}`,
  ];
}

/** Asserts the acceptance on `f`, with at least `minWrites` acknowledged writes. */
export function expectSound(f: ScaleFigures, minWrites: number): void {
  expect(f.books.lost).toEqual([]);
  expect(f.books.duplicated).toEqual([]);
  expect(f.books.changedAfterAll).toEqual([]);
  expect(f.books.acknowledged.total).toBeGreaterThanOrEqual(minWrites);
  expect(f.killedAtWrites).toBeGreaterThan(0);
  if (f.restartExit !== undefined) {
    expect(f.restartedAtWrites).toBeGreaterThan(f.killedAtWrites);
    expect(f.restartExit).toEqual({ code: 0, signal: null });
  }
  expect(f.probe).toMatchObject({ ok: 120, refused: 5 });
  for (const n of f.probe.perInstance) expect(n).toBeGreaterThan(0);
  expect(f.books.answersLogged).toBe(f.books.answers);
}
