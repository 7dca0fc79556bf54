/**
 * The paired phase of `npm run bench`: the comparisons whose two sides differ by a few percent (the error path's
 * cost, the client's overhead) are measured again in batches of their two configurations back to back, the order
 * swapped every round, so that both sides of each ratio meet the same load on the machine. In the main rounds
 * every other configuration runs between them, which spreads a 5 % question over ±30 %.
 *
 * @packageDocumentation
 */
import type { Caller } from './callers.ts';
import type { Comparison } from './configs.ts';
import { measure } from './measure.ts';
import type { RoundSamples } from './report.ts';

/** Per comparison (keyed by {@link pairKey}), the samples of its two sides from the paired phase. */
export type PairedSamples = Map<string, { readonly a: RoundSamples; readonly b: RoundSamples }>;

/** The key of a comparison in {@link PairedSamples}. */
export const pairKey = (c: Comparison): string => `${c.a} | ${c.b}`;

/** Whether a comparison is measured in the paired phase. */
export const isPaired = (c: Comparison): boolean => c.kind === 'cost' || c.kind === 'overhead';

/**
 * Measures each paired comparison `rounds` times: sequential batches of both sides back to back, then batches
 * with 16 in flight in the opposite order; the side that runs first alternates between rounds.
 */
export async function pairedPhase(
  comparisons: readonly Comparison[],
  callers: ReadonlyMap<string, Caller>,
  options: { readonly rounds: number; readonly seqMs: number; readonly concMs: number },
  log: (line: string) => void,
): Promise<PairedSamples> {
  const paired: PairedSamples = new Map();
  const pairs = comparisons.filter((c) => isPaired(c) && callers.has(c.a) && callers.has(c.b));
  for (const c of pairs) paired.set(pairKey(c), { a: emptySamples(), b: emptySamples() });
  for (let round = 0; round < options.rounds; round += 1) {
    for (const c of pairs) {
      const samples = paired.get(pairKey(c))!;
      const order: ['a' | 'b', 'a' | 'b'] = round % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
      for (const side of order)
        samples[side].seq.push(await measure(callers.get(c[side])!, options.seqMs, 1));
      for (const side of [...order].reverse())
        samples[side].conc.push(await measure(callers.get(c[side])!, options.concMs, 16));
    }
    log(`paired round ${String(round + 1)}/${String(options.rounds)} done`);
  }
  return paired;
}

function emptySamples(): RoundSamples {
  return { seq: [], conc: [], peakRss: 0 };
}
