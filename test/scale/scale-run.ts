/**
 * The scale scenario: three `recourse-board serve` instances on one PostgreSQL behind HAProxy, members loading
 * them through the balancer while one instance is SIGKILLed and another restarted gracefully, then a rate-limit
 * probe across the instances, then the books: every acknowledged write present exactly once, no write done
 * twice, every answered call in the call log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { ToolCallFailedError } from '@recourse/client';
import { createPgBoardServer } from '../../apps/board/src/board-server.pg.ts';
import { startTempPostgres } from '../support/temp-postgres.ts';
import type { ServeInstance } from '../../apps/board/src/testing/serve-instance.ts';
import { startHaproxy } from './haproxy.ts';
import { boardCli, callsCounted, freePort, startInstance, waitReady } from './scale-cluster.ts';
import { emptyLedger, loadClient, runMember, type LoadMember } from './scale-load.ts';
import { checkBooks, type Books } from './scale-books.ts';
import { docCommand } from './operating-doc.ts';

/** How big a run is. */
export interface ScaleOptions {
  readonly members: number;
  readonly writesPerMember: number;
  /** The load phase stops at this budget even if writes remain (ms). */
  readonly loadBudgetMs: number;
  /** Also stop instance 3 with SIGTERM and start it again, after half the writes (default true). */
  readonly restart?: boolean;
  readonly log: (line: string) => void;
}

/** What a run measured. */
export interface ScaleFigures {
  readonly books: Books;
  /** The rate-limit probe: calls passed, calls refused, calls each instance counted. */
  readonly probe: { ok: number; refused: number; perInstance: number[] };
  readonly killedAtWrites: number;
  readonly restartedAtWrites: number;
  /** How the restarted instance exited on SIGTERM (undefined: no restart in this run). */
  readonly restartExit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly loadMs: number;
  readonly failures: Record<string, number>;
  readonly retriedWrites: number;
}

/** The default per-member limit the probe runs into. */
const RATE_LIMIT = 120;
const PROBE_CALLS = RATE_LIMIT + 5;
const PROBE_LANES = 5;

/** Runs the scenario and answers its figures; everything it started is stopped, whatever happens. */
export async function runScale(options: ScaleOptions): Promise<ScaleFigures> {
  const dir = mkdtempSync(join(tmpdir(), 'recourse-scale-'));
  const postgres = await startTempPostgres();
  const instances: (ServeInstance | undefined)[] = [];
  let balancer: Awaited<ReturnType<typeof startHaproxy>> | undefined;
  try {
    const databaseUrl = await postgres.freshDatabaseUrl();
    options.log('PostgreSQL started');
    // The operator's commands, as docs/operating.md gives them: members and tokens on DATABASE_URL.
    const [, ...addProbe] = docCommand('recourse-board members add');
    const probeId = (await boardCli(databaseUrl, addProbe)).trim();
    if (!/^m_\w+$/.test(probeId)) throw new Error(`members add printed ${probeId}, not a member id`);
    const [, ...createToken] = docCommand('recourse-board tokens create', { 'm_…': probeId });
    const probeToken = (await boardCli(databaseUrl, createToken)).trim();
    const members = await addMembers(databaseUrl, options.members);
    options.log(`members ready; starting instances`);

    const balancerPort = await freePort();
    instances.push(...(await Promise.all([0, 1, 2].map(() => startInstance(databaseUrl, 0, balancerPort)))));
    const ports = instances.map((instance) => instance?.port ?? 0);
    balancer = await startHaproxy(
      dir,
      balancerPort,
      ports.map((port, i) => ({ name: `board${String(i + 1)}`, port })),
    );
    await waitReady(`${balancer.url}/readyz`);
    options.log(`3 instances on ports ${ports.join(', ')} behind HAProxy on ${String(balancerPort)}`);

    const ledger = emptyLedger();
    const target = options.members * options.writesPerMember;
    let acknowledged = 0;
    let killedAtWrites = -1;
    let restartedAtWrites = -1;
    const chaos = (async () => {
      const until = Date.now() + options.loadBudgetMs;
      const waitFor = async (share: number): Promise<void> => {
        for (let i = 0; i < 100_000 && acknowledged < target * share && Date.now() < until; i += 1)
          await new Promise((resolve) => setTimeout(resolve, 25));
      };
      await waitFor(0.25);
      killedAtWrites = acknowledged;
      instances[1]?.child.kill('SIGKILL');
      options.log(`SIGKILL instance 2 after ${String(acknowledged)} acknowledged writes`);
      if (options.restart === false) return undefined;
      await waitFor(0.5);
      restartedAtWrites = acknowledged;
      const leaving = instances[2];
      leaving?.child.kill('SIGTERM');
      const exit = (await leaving?.exited) ?? { code: null, signal: null };
      options.log(`instance 3 drained and exited ${String(exit.code)} after ${String(acknowledged)} writes`);
      instances[2] = await startInstance(databaseUrl, ports[2] ?? 0, balancerPort);
      options.log('instance 3 restarted');
      return exit;
    })();
    const started = Date.now();
    await Promise.all(
      members.map(async (member) => {
        const client = loadClient(`${balancer?.url ?? ''}/mcp`, member.token);
        try {
          await runMember(
            client,
            member,
            options.writesPerMember,
            started + options.loadBudgetMs,
            ledger,
            () => {
              acknowledged += 1;
            },
          );
        } finally {
          await client.close();
        }
      }),
    );
    const loadMs = Date.now() - started;
    const restartExit = await chaos;

    // Bring the killed instance back, so that the probe's calls spread over three instances.
    instances[1] = await startInstance(databaseUrl, ports[1] ?? 0, balancerPort);
    for (const instance of instances) await waitReady(`${instance?.origin ?? ''}/readyz`);
    await new Promise((resolve) => setTimeout(resolve, 1500)); // HAProxy marks a server up after 2 checks
    options.log('all instances ready again; rate probe');
    const probe = await rateProbe(balancer.url, probeToken, instances);
    options.log('checking the books');
    const books = await checkBooks(databaseUrl, ledger);
    const retriedWrites = ledger.writes.filter((w) => w.attempts > 1).length;
    return {
      books,
      probe,
      killedAtWrites,
      restartedAtWrites,
      restartExit,
      loadMs,
      failures: ledger.failures,
      retriedWrites,
    };
  } finally {
    await balancer?.stop();
    for (const instance of instances) {
      if (instance !== undefined && instance.child.exitCode === null && instance.child.signalCode === null) {
        instance.child.kill('SIGTERM');
        await instance.exited;
      }
    }
    await postgres.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function addMembers(databaseUrl: string, count: number): Promise<LoadMember[]> {
  const board = await createPgBoardServer({ databaseUrl, logger: pino({ level: 'silent' }) });
  try {
    const members: LoadMember[] = [];
    for (let i = 0; i < count; i += 1) {
      const member = await board.services.members.add({
        name: `Loader ${String(i + 1)}`,
        kind: i % 2 === 0 ? 'assistant' : 'person',
        role: 'contributor',
      });
      members.push({ id: member.id, token: (await board.services.tokens.create(member.id)).token });
    }
    return members;
  } finally {
    await board.close();
  }
}

/**
 * One member's {@link PROBE_CALLS} calls through the balancer in {@link PROBE_LANES} concurrent lanes, without
 * retries: exactly {@link RATE_LIMIT} may pass within the window, whichever instances they reach.
 */
async function rateProbe(
  balancerUrl: string,
  token: string,
  instances: readonly (ServeInstance | undefined)[],
): Promise<ScaleFigures['probe']> {
  const counted = (): Promise<number[]> =>
    Promise.all(
      instances.map((i) =>
        i === undefined ? Promise.resolve(0) : callsCounted(i, 'whoami', ['ok', 'rate_limit']),
      ),
    );
  const before = await counted();
  const client = loadClient(`${balancerUrl}/mcp`, token, 1);
  let ok = 0;
  let refused = 0;
  let next = 0;
  const others: string[] = [];
  try {
    await Promise.all(
      Array.from({ length: PROBE_LANES }, async () => {
        for (; next < PROBE_CALLS;) {
          next += 1;
          const outcome = await client.tryCallTool('whoami', {});
          if (outcome.ok) ok += 1;
          else if (
            outcome.error instanceof ToolCallFailedError &&
            outcome.error.failure?.category === 'rate_limit'
          )
            refused += 1;
          else others.push(outcome.error.message);
        }
      }),
    );
  } finally {
    await client.close();
  }
  if (others.length > 0) throw new Error(`probe calls failed otherwise: ${others.join('; ')}`);
  const after = await counted();
  return { ok, refused, perInstance: after.map((n, i) => n - (before[i] ?? 0)) };
}
