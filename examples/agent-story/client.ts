/**
 * The client side of the agent story: a small scripted agent that works the board through the resilient
 * client while faults are injected, reacts to each failure the way its category says, and reports what it did.
 *
 * Run it on its own with `npx tsx examples/agent-story/client.ts`.
 */
import { pathToFileURL } from 'node:url';
import { createRecourseClient } from '@recourse/client';
import type { CallSuccess, PolicyEventName, RecourseCallError, RecourseClient } from '@recourse/client';
import { startStoryServer } from './server.ts';

/** What the agent needs from the world: where the board is, and a switch for the search outage. */
export interface StoryWorld {
  readonly url: string;
  readonly directUrl: string;
  readonly token: string;
  searchOutage: boolean;
}

/** One step of the story as the agent lived it. */
export interface StoryStep {
  readonly step: string;
  /** `ok`, or the failure's code and category / JSON-RPC code. */
  readonly outcome: string;
  readonly attempts: number;
  readonly note: string;
}

/** What the agent reports at the end. */
export interface StoryReport {
  readonly steps: StoryStep[];
  readonly createdRefs: string[];
  readonly events: Record<PolicyEventName, number>;
}

const BACKLOG = [
  'Write the release notes',
  'Fix the login timeout',
  'Review the error texts',
  'Tidy the CLI help',
  'Plan the demo',
  'Archive old tasks',
];

function taskOf(success: CallSuccess): { ref: string; version: number } {
  const task = (
    success.result.structuredContent as { task?: { ref?: unknown; version?: unknown } } | undefined
  )?.task;
  if (typeof task?.ref !== 'string' || typeof task.version !== 'number')
    throw new Error('The board answered without a task.');
  return { ref: task.ref, version: task.version };
}

function describeFailure(error: RecourseCallError): string {
  const detail = error as RecourseCallError & { category?: string; rpcCode?: number };
  return [error.code, detail.category, detail.rpcCode].filter((part) => part !== undefined).join(' ');
}

/** Runs the scripted agent against `world` and returns its report. */
export async function runAgent(world: StoryWorld): Promise<StoryReport> {
  const steps: StoryStep[] = [];
  const events = { retry: 0, give_up: 0, break: 0, half_open: 0, reset: 0, reroute: 0 };
  const replica = createRecourseClient({
    target: { url: world.directUrl, token: world.token },
    name: 'replica',
  });
  const board: RecourseClient = createRecourseClient({
    target: { url: world.url, token: world.token },
    name: 'board',
    timeoutMs: 10_000,
    retry: { maxAttempts: 4, initialDelayMs: 10, maxDelayMs: 50 },
    breaker: { threshold: 2, halfOpenAfterMs: 60_000 },
    fallbacks: { tasks_search: { tool: 'tasks_search', client: replica } },
  });
  for (const name of Object.keys(events) as PolicyEventName[]) board.on(name, () => events[name]++);
  const record = (step: string, outcome: string, attempts: number, note: string): void =>
    void steps.push({ step, outcome, attempts, note });

  try {
    // 1. Fill the backlog. Some connections drop; tasks_create takes an idempotency key, so the client repeats it safely.
    const createdRefs: string[] = [];
    for (const title of BACKLOG) {
      const created = await board.callTool('tasks_create', { title, labels: ['story'] });
      createdRefs.push(taskOf(created).ref);
      record('create', 'ok', created.attempts.length, `${taskOf(created).ref} ${title}`);
    }

    // 2. A remembered ref is wrong: not_found means replan, not retry. Search by title instead.
    const wrong = await board.tryCallTool('tasks_get', { ref: 'T-999' });
    if (wrong.ok) throw new Error('T-999 should not exist.');
    record(
      'get remembered ref',
      describeFailure(wrong.error),
      wrong.error.attempts.length,
      'replanning: search by title',
    );
    const found = await board.callTool('tasks_search', { query: 'login timeout' });
    const loginRef = (found.result.structuredContent as { tasks: { ref: string }[] }).tasks[0]?.ref;
    if (loginRef === undefined) throw new Error('The login task was not found.');
    record('search by title', 'ok', found.attempts.length, `found ${loginRef}`);

    // 3. Edit with a stale version: conflict means re-read, then edit again with the current version.
    const current = taskOf(await board.callTool('tasks_get', { ref: loginRef }));
    await board.callTool('tasks_update', {
      ref: loginRef,
      expectedVersion: current.version,
      description: 'Seen in the logs.',
    });
    const stale = await board.tryCallTool('tasks_update', {
      ref: loginRef,
      expectedVersion: current.version,
      title: 'Fix the login timeout (30 s)',
    });
    if (stale.ok) throw new Error('A stale version should conflict.');
    record(
      'update with stale version',
      describeFailure(stale.error),
      stale.error.attempts.length,
      're-reading the task',
    );
    const fresh = taskOf(await board.callTool('tasks_get', { ref: loginRef }));
    const updated = await board.callTool('tasks_update', {
      ref: loginRef,
      expectedVersion: fresh.version,
      title: 'Fix the login timeout (30 s)',
    });
    record(
      'update with current version',
      'ok',
      updated.attempts.length,
      `${loginRef} now v${taskOf(updated).version}`,
    );

    // 4. The search service goes down: retries fail, the breaker opens, and searches go to the replica.
    world.searchOutage = true;
    for (let i = 1; i <= 3; i++) {
      const search = await board.tryCallTool('tasks_search', { label: 'story' });
      if (search.ok) {
        const via = search.value.reroutedFrom ? `rerouted to ${search.value.server}` : 'direct';
        record(`search during outage ${i}`, 'ok', search.value.attempts.length, via);
      } else {
        record(
          `search during outage ${i}`,
          describeFailure(search.error),
          search.error.attempts.length,
          'search is down',
        );
      }
    }
    world.searchOutage = false;

    // 5. Start work on two tasks; tasks_move is idempotent, so a repeat would be harmless.
    for (const ref of createdRefs.slice(0, 2)) {
      const moved = await board.callTool('tasks_move', { ref, status: 'doing' });
      record('move to doing', 'ok', moved.attempts.length, ref);
    }
    return { steps, createdRefs, events };
  } finally {
    await board.close();
    await replica.close();
  }
}

/** Starts the story server, runs the agent, prints the report and closes everything. */
export async function runStory(print: (line: string) => void = console.log): Promise<StoryReport> {
  const server = await startStoryServer();
  try {
    const report = await runAgent(server);
    for (const s of report.steps)
      print(`${s.step.padEnd(28)} ${s.outcome.padEnd(34)} attempts=${s.attempts}  ${s.note}`);
    print(`events: ${JSON.stringify(report.events)}`);
    return report;
  } finally {
    await server.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runStory();
}
