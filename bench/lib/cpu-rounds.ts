/**
 * Client CPU per call of several ways of making one call, measured in rotating batches (each round starts one
 * variant later), so that load on the machine hits every variant alike.
 *
 * @packageDocumentation
 */

/** CPU time (user + system) of this process per call, in µs, over `n` sequential calls. */
export async function cpuPerCall(call: () => Promise<unknown>, n: number): Promise<number> {
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) await call();
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / n;
}

/**
 * Runs `warmUp` calls of each variant, then `rounds` rounds of `calls` calls per variant in rotating order;
 * resolves with each variant's CPU µs per call, one figure per round. `only` (comma-separated names) picks the
 * variants to run besides the first, which every figure is compared with.
 */
export async function rotatingCpuRounds(
  variants: Readonly<Record<string, () => Promise<unknown>>>,
  options: {
    readonly rounds: number;
    readonly calls: number;
    readonly warmUp: number;
    readonly only: string | undefined;
  },
): Promise<Map<string, number[]>> {
  const all = Object.keys(variants);
  const names = options.only === undefined ? all : [all[0]!, ...options.only.split(',')];
  for (const name of names) await cpuPerCall(variants[name]!, options.warmUp);
  const results = new Map<string, number[]>(names.map((name) => [name, []]));
  for (let round = 0; round < options.rounds; round++) {
    const shift = round % names.length;
    for (const name of [...names.slice(shift), ...names.slice(0, shift)])
      results.get(name)!.push(await cpuPerCall(variants[name]!, options.calls));
  }
  return results;
}
