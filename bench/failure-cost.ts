/**
 * `npm run bench:failure-cost`: what the error path's own work costs in process, without sockets or the SDK:
 * the board's `TASK_NOT_FOUND` failure built, its text rendered, encoded (rendered and redacted) and mapped by the
 * pipeline (a copy with the correlation id, encoded, logged below the level), against mapping the success
 * answer of `tasks_get T-1`. Each step runs in batches of 10,000, the batches of all steps taking turns; it prints
 * the fastest and the median batch per step, in microseconds per call.
 *
 * Flags: `--rounds N` (default 21).
 *
 * @packageDocumentation
 */
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { REDACTION_RULES, encodeFailure, renderFailureText } from '@recourse/core';
import { taskNotFound } from '../apps/board/src/domain/board-failures.ts';
import { mapFailure, mapSuccess } from '../packages/server/src/pipeline/result-mapping.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string' } } });
const rounds = Number(values.rounds ?? 21);
const BATCH = 10_000;
// The level the benchmark's board runs at: the refusal's info line is below it.
const logger = pino({ level: 'warn' });
const correlationId = 'c_7Hq2kP0mZ4vX9aLr2bT8wQ';
const failure = { ...taskNotFound('T-999999').failure, correlationId };
const context = {
  tool: 'tasks_get',
  correlationId,
  logger,
  changed: false,
  principalId: 'm_3kq9x7d2bz4w',
  keyed: false,
  rules: REDACTION_RULES,
};
const successText =
  'T-1 [todo] Benchmark task (unassigned), version 1\nDescription: Seeded for the benchmark.\n0 comments, 1 history entries.';

const steps: Record<string, (i: number) => unknown> = {
  'taskNotFound(ref)': (i) => taskNotFound(`T-${String(i)}`),
  renderFailureText: () => renderFailureText(failure),
  encodeFailure: () => encodeFailure(failure, REDACTION_RULES),
  'mapFailure (TASK_NOT_FOUND)': (i) => mapFailure(taskNotFound(`T-${String(i)}`), context),
  'mapSuccess (tasks_get T-1 text)': () =>
    mapSuccess({ text: successText, structuredContent: {} }, correlationId, REDACTION_RULES),
};
const times: Record<string, number[]> = {};
for (let round = 0; round < rounds + 1; round += 1) {
  for (const [name, step] of Object.entries(steps)) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i += 1) step(i);
    const us = Number(process.hrtime.bigint() - started) / BATCH / 1000;
    if (round > 0) (times[name] ??= []).push(us); // the first round warms up
  }
}
process.stdout.write('| step | fastest µs/call | median µs/call |\n| --- | --: | --: |\n');
for (const [name, list] of Object.entries(times)) {
  const sorted = [...list].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  process.stdout.write(`| ${name} | ${sorted[0]!.toFixed(2)} | ${median.toFixed(2)} |\n`);
}
