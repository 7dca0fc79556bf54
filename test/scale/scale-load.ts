/**
 * The load of the scale tests: members working through the load balancer with @recourse/client (keyed creates,
 * updates at `expectedVersion`, keyed comments, reads), and the ledger of what each call was told.
 */
import { randomUUID } from 'node:crypto';
import {
  createRecourseClient,
  LocalCallError,
  ToolCallFailedError,
  type RecourseClient,
} from '@recourse/client';

/** One write and what its caller learnt: `ok` (acknowledged), `failed` (a failure saying nothing changed) or `unknown`. */
export interface LedgerEntry {
  readonly kind: 'create' | 'update' | 'comment';
  readonly member: string;
  /** The create's or comment's idempotency key; the update's new title. */
  readonly mark: string;
  readonly ref: string | undefined;
  readonly outcome: 'ok' | 'failed' | 'unknown';
  /** Attempts the client made (more than one: it retried). */
  readonly attempts: number;
}

/** Everything the load observed. */
export interface LoadLedger {
  readonly writes: LedgerEntry[];
  readonly reads: { ok: number; failed: number };
  /** The correlation ids of every answer the clients received (results and tool failures). */
  readonly correlationIds: string[];
  /** Failures by the client's code or the server's failure code, e.g. `CALL_AMBIGUOUS`, `VERSION_CONFLICT`. */
  readonly failures: Record<string, number>;
}

/** A member the load runs as. */
export interface LoadMember {
  readonly id: string;
  readonly token: string;
}

/** Creates the ledger the workers fill. */
export function emptyLedger(): LoadLedger {
  return { writes: [], reads: { ok: 0, failed: 0 }, correlationIds: [], failures: {} };
}

/** A @recourse/client on the balancer for one member: modern protocol, safe retries, no breaker. */
export function loadClient(url: string, token: string, maxAttempts = 6): RecourseClient {
  return createRecourseClient({
    target: { url, token },
    protocol: 'modern',
    name: 'board',
    timeoutMs: 20_000,
    retry: { maxAttempts, initialDelayMs: 100, maxDelayMs: 1500 },
    breaker: false,
    bulkhead: false,
  });
}

interface Answer {
  readonly ok: boolean;
  readonly structured: Record<string, unknown> | undefined;
  /** True when the failure says nothing changed (`changed: false`) or the call never left. */
  readonly nothingChanged: boolean;
  readonly attempts: number;
}

async function call(
  client: RecourseClient,
  ledger: LoadLedger,
  tool: string,
  args: Record<string, unknown>,
  idempotencyKey?: string,
): Promise<Answer> {
  const outcome = await client.tryCallTool(
    tool,
    args,
    idempotencyKey === undefined ? {} : { idempotencyKey },
  );
  if (outcome.ok) {
    const meta = outcome.value.result._meta?.['dev.recourse/call'] as { correlationId?: string } | undefined;
    if (meta?.correlationId !== undefined) ledger.correlationIds.push(meta.correlationId);
    return {
      ok: true,
      structured: outcome.value.result.structuredContent as Record<string, unknown> | undefined,
      nothingChanged: false,
      attempts: outcome.value.attempts.length,
    };
  }
  const error = outcome.error;
  const failure = error instanceof ToolCallFailedError ? error.failure : undefined;
  if (failure?.correlationId !== undefined) ledger.correlationIds.push(failure.correlationId);
  const code = failure?.code ?? error.code;
  ledger.failures[code] = (ledger.failures[code] ?? 0) + 1;
  const neverSent = error instanceof LocalCallError && !error.mayHaveReachedServer;
  return {
    ok: false,
    structured: undefined,
    nothingChanged: failure?.changed === false || neverSent,
    attempts: error.attempts.length,
  };
}

function taskOf(answer: Answer): { ref: string; version: number } | undefined {
  const task = (answer.structured as { task?: { ref?: unknown; version?: unknown } } | undefined)?.task;
  return typeof task?.ref === 'string' && typeof task.version === 'number'
    ? { ref: task.ref, version: task.version }
    : undefined;
}

/**
 * One member's work: cycles of create, update, comment, update, comment, read (five writes, one read) until
 * `writes` writes were attempted or `until` passed. Updates go to the member's newest task at the version last
 * seen; after an unclear or refused update the task is read again.
 */
export async function runMember(
  client: RecourseClient,
  member: LoadMember,
  writes: number,
  until: number,
  ledger: LoadLedger,
  onWrite: () => void,
): Promise<void> {
  let current: { ref: string; version: number } | undefined;
  const record = (entry: Omit<LedgerEntry, 'member'>): void => {
    ledger.writes.push({ ...entry, member: member.id });
    if (entry.outcome === 'ok') onWrite();
  };
  const outcomeOf = (answer: Answer): LedgerEntry['outcome'] =>
    answer.ok ? 'ok' : answer.nothingChanged ? 'failed' : 'unknown';
  const refresh = async (): Promise<void> => {
    if (current === undefined) return;
    const read = await call(client, ledger, 'tasks_get', { ref: current.ref });
    if (read.ok) ledger.reads.ok += 1;
    else ledger.reads.failed += 1;
    current = taskOf(read) ?? current;
  };
  const steps = ['create', 'update', 'comment', 'update', 'comment', 'read'] as const;
  let attempted = 0;
  for (let step = 0; attempted < writes && Date.now() < until && step < writes * 2; step += 1) {
    const kind = steps[step % steps.length] ?? 'read';
    if (kind === 'read' || (kind !== 'create' && current === undefined)) {
      await refresh();
      continue;
    }
    attempted += 1;
    if (kind === 'create') {
      const key = `create-${member.id}-${randomUUID()}`;
      const answer = await call(client, ledger, 'tasks_create', { title: `Load ${key}` }, key);
      const task = taskOf(answer);
      if (task !== undefined) current = task;
      record({ kind, mark: key, ref: task?.ref, outcome: outcomeOf(answer), attempts: answer.attempts });
    } else if (kind === 'update' && current !== undefined) {
      const title = `Edited ${member.id} ${randomUUID()}`;
      const answer = await call(client, ledger, 'tasks_update', {
        ref: current.ref,
        expectedVersion: current.version,
        title,
      });
      record({ kind, mark: title, ref: current.ref, outcome: outcomeOf(answer), attempts: answer.attempts });
      const task = taskOf(answer);
      if (task !== undefined) current = task;
      else await refresh();
    } else if (current !== undefined) {
      const key = `comment-${member.id}-${randomUUID()}`;
      const answer = await call(client, ledger, 'tasks_comment', { ref: current.ref, body: key }, key);
      record({ kind, mark: key, ref: current.ref, outcome: outcomeOf(answer), attempts: answer.attempts });
    }
  }
}
