/**
 * Client CPU per call of several ways of making one call, measured in rotating batches (each round starts one
 * variant later), so that load on the machine hits every variant alike.
 *
 * @packageDocumentation
 */

/**
 * CPU time (user + system) of this process per call, in µs, over `n` calls made by `inFlight` callers at once,
 * each calling sequentially (1: `n` sequential calls).
 */
export async function cpuPerCall(call: () => Promise<unknown>, n: number, inFlight = 1): Promise<number> {
  const cpu = process.cpuUsage();
  const made = await callsInFlight(call, n, inFlight);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / made;
}

/**
 * Makes about `n` calls with `inFlight` callers at once, each calling sequentially; resolves with the number of
 * calls made (`n` rounded up to a multiple of `inFlight`).
 */
export async function callsInFlight(
  call: () => Promise<unknown>,
  n: number,
  inFlight: number,
): Promise<number> {
  const each = Math.ceil(n / inFlight);
  const caller = async (): Promise<void> => {
    for (let i = 0; i < each; i++) await call();
  };
  await Promise.all(Array.from({ length: inFlight }, caller));
  return each * inFlight;
}

/**
 * Runs `warmUp` calls of each variant, then `rounds` rounds of `calls` calls per variant (`inFlight` at once) in
 * rotating order; resolves with each variant's CPU µs per call, one figure per round. `only` (comma-separated
 * names) picks the variants to run besides the first, which every figure is compared with.
 */
export async function rotatingCpuRounds(
  variants: Readonly<Record<string, () => Promise<unknown>>>,
  options: {
    readonly rounds: number;
    readonly calls: number;
    readonly warmUp: number;
    readonly only: string | undefined;
    /** Calls in flight at once (default 1: sequential). */
    readonly inFlight?: number;
  },
): Promise<Map<string, number[]>> {
  const all = Object.keys(variants);
  const names = options.only === undefined ? all : [all[0]!, ...options.only.split(',')];
  const inFlight = options.inFlight ?? 1;
  for (const name of names) await cpuPerCall(variants[name]!, options.warmUp, inFlight);
  const results = new Map<string, number[]>(names.map((name) => [name, []]));
  for (let round = 0; round < options.rounds; round++) {
    const shift = round % names.length;
    for (const name of [...names.slice(shift), ...names.slice(0, shift)])
      results.get(name)!.push(await cpuPerCall(variants[name]!, options.calls, inFlight));
  }
  return results;
}
