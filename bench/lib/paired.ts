/**
 * The paired phase of `npm run bench`: the comparisons whose two sides differ by a few percent (the error path's
 * cost, the client's overhead) are measured again, each in fresh processes of its own (`paired-child.ts`, a few
 * rounds each) holding only its two clients, in batches of the two back to back, the order swapped every round,
 * so that both sides of each ratio meet the same load on the machine. In the main rounds every other
 * configuration runs between the two sides, and every other client lives in the same process (its garbage, its
 * timers), which spreads a 5 % question over ±30 %.
 *
 * @packageDocumentation
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Caller } from './callers.ts';
import type { Comparison } from './configs.ts';
import type { SeededBoard } from './fixtures.ts';
import { measure } from './measure.ts';
import type { RoundSamples } from './report.ts';

/** The two sides of one paired comparison. */
export interface PairSamples {
  readonly a: RoundSamples;
  readonly b: RoundSamples;
}

/** Per comparison (keyed by {@link pairKey}), the samples of its two sides from the paired phase. */
export type PairedSamples = Map<string, PairSamples>;

/** The key of a comparison in {@link PairedSamples}. */
export const pairKey = (c: Comparison): string => `${c.a} | ${c.b}`;

/** Whether a comparison is measured in the paired phase. */
export const isPaired = (c: Comparison): boolean => c.kind === 'cost' || c.kind === 'overhead';

/** Sizes of the paired phase. */
export interface PairSizes {
  readonly rounds: number;
  readonly warmMs: number;
  readonly seqMs: number;
  readonly concMs: number;
}

/** What a paired child is given: the running HTTP servers by name, the seeded boards, the two sides, sizes. */
export interface PairJob extends PairSizes {
  readonly servers: Readonly<Record<string, { readonly url: string; readonly pid: number }>>;
  readonly sqlite: SeededBoard;
  readonly pg: SeededBoard | undefined;
  readonly a: string;
  readonly b: string;
  /** Open (spawn, warm up) `b` before `a`: the children of one comparison take turns. */
  readonly bFirst: boolean;
}

/**
 * Measures `a` and `b` `rounds` times: sequential batches of both back to back, then batches with 16 in flight
 * in the opposite order; the side that runs first alternates between rounds.
 */
export async function pairRounds(a: Caller, b: Caller, sizes: PairSizes): Promise<PairSamples> {
  const samples = { a: emptySamples(), b: emptySamples() };
  const callers = { a, b };
  for (let round = 0; round < sizes.rounds; round += 1) {
    const order: ['a' | 'b', 'a' | 'b'] = round % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
    for (const side of order) samples[side].seq.push(await measure(callers[side], sizes.seqMs, 1));
    for (const side of [...order].reverse())
      samples[side].conc.push(await measure(callers[side], sizes.concMs, 16));
  }
  return samples;
}

/** At most this many rounds of one comparison run in one child process (see {@link pairedPhase}). */
export const ROUNDS_PER_PROCESS = 6;

/**
 * Runs every paired comparison among `comparisons`, one after the other, each in child processes of its own:
 * its rounds are spread over fresh children of at most {@link ROUNDS_PER_PROCESS} rounds each, whose samples are
 * pooled, and the side opened first (its server spawned and warmed up first, on stdio) alternates between
 * children. With every round in one child, two identical SDK clients on the stdio echo read up to 7.8 % apart
 * with 16 in flight (`bench/README.md`): a process, and on stdio its server process, keeps for its whole life
 * whatever made it a little faster or slower than an identical one, and the second one opened was the slower more
 * often than not.
 */
export async function pairedPhase(
  comparisons: readonly Comparison[],
  job: Omit<PairJob, 'a' | 'b' | 'bFirst'>,
  log: (line: string) => void,
): Promise<PairedSamples> {
  const paired: PairedSamples = new Map();
  const child = fileURLToPath(new URL('paired-child.ts', import.meta.url));
  for (const c of comparisons.filter(isPaired)) {
    const pooled = { a: emptySamples(), b: emptySamples() };
    for (let done = 0, turn = 0; done < job.rounds; done += ROUNDS_PER_PROCESS, turn += 1) {
      const rounds = Math.min(ROUNDS_PER_PROCESS, job.rounds - done);
      const part: PairJob = { ...job, rounds, a: c.a, b: c.b, bFirst: turn % 2 === 1 };
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', child, JSON.stringify(part)],
        { maxBuffer: 64 * 1024 * 1024, timeout: 30 * 60_000 },
      );
      const samples = JSON.parse(stdout) as PairSamples;
      for (const side of ['a', 'b'] as const) {
        pooled[side].seq.push(...samples[side].seq);
        pooled[side].conc.push(...samples[side].conc);
        pooled[side].peakRss = Math.max(pooled[side].peakRss, samples[side].peakRss);
      }
    }
    paired.set(pairKey(c), pooled);
    log(`paired: ${c.leg.id} ${c.label} done`);
  }
  return paired;
}

function emptySamples(): RoundSamples {
  return { seq: [], conc: [], peakRss: 0 };
}
