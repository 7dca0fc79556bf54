/**
 * The resilient MCP client. Every call passes through one stack, composed here and nowhere else, outermost
 * first: bulkhead (per server) → circuit breaker (per tool) → retry → deadline → the call.
 *
 * @packageDocumentation
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { BreakerRegistry } from './breakers.ts';
import type { Admission, BreakerState, ToolBreaker } from './breakers.ts';
import { Bulkhead, BulkheadRefused } from './bulkhead.ts';
import { runAttempt } from './call-attempt.ts';
import type { AttemptPlan } from './call-attempt.ts';
import { Connection } from './connection.ts';
import type { ServerTarget } from './connection.ts';
import { Deadline } from './deadline.ts';
import { ClientClosedError, LocalCallError, isRecourseCallError } from './errors.ts';
import type { RecourseCallError } from './errors.ts';
import { PolicyEvents } from './policy-events.ts';
import { bulkheadFull, cancelledBeforeSending, circuitOpen } from './refusals.ts';
import type { PolicyEventName, PolicyListener } from './policy-events.ts';
import { retryAfterFailure } from './retry-policy.ts';
import { ToolCatalog } from './tool-catalog.ts';
import { TaskCalls, type TaskCallOptions, type TaskReference } from './tasks/task-calls.ts';
import type {
  CallOptions,
  CallOutcome,
  CallSuccess,
  FallbackRoute,
  RecourseClientOptions,
} from './client-options.ts';

function defaultName(target: ServerTarget): string {
  if ('url' in target) return new URL(target.url).host;
  if ('stdio' in target) return target.stdio.command;
  return 'server';
}

/** A resilient client of one MCP server. Create it with {@link createRecourseClient}. */
export class RecourseClient {
  /** The server's name in attempt logs and events. */
  readonly name: string;
  readonly #options: RecourseClientOptions;
  readonly #connection: Connection;
  readonly #events = new PolicyEvents();
  readonly #breakers: BreakerRegistry | undefined;
  readonly #bulkhead: Bulkhead | undefined;
  readonly #catalog: ToolCatalog;
  readonly #tasks: TaskCalls | undefined;
  #closed = false;

  /** Throws `InvalidClientOptionsError` (`INVALID_CLIENT_OPTIONS`) when an input capability and its handler do not match. */
  constructor(options: RecourseClientOptions) {
    this.#options = options;
    this.name = options.name ?? defaultName(options.target);
    const { onElicitation, onSampling, onListRoots } = options;
    this.#connection = new Connection(options.target, {
      ...(options.protocol === undefined ? {} : { protocol: options.protocol }),
      ...(options.capabilities === undefined ? {} : { capabilities: options.capabilities }),
      inputHandlers: {
        ...(onElicitation ? { onElicitation } : {}),
        ...(onSampling ? { onSampling } : {}),
        ...(onListRoots ? { onListRoots } : {}),
      },
    });
    this.#breakers =
      options.breaker === false
        ? undefined
        : new BreakerRegistry(this.name, options.breaker ?? {}, this.#events);
    const limits = options.bulkhead === false ? undefined : (options.bulkhead ?? {});
    this.#bulkhead = limits ? new Bulkhead(limits.maxConcurrent ?? 16, limits.maxQueue ?? 64) : undefined;
    const target = options.target;
    this.#tasks =
      options.tasks === false || !('url' in target)
        ? undefined
        : new TaskCalls(
            { url: String(target.url), ...(target.token === undefined ? {} : { token: target.token }) },
            options.tasks ?? {},
            () => this.#connection.client(),
          );
    this.#catalog = new ToolCatalog((signal) => this.#connection.listTools(signal), options.tools);
  }

  /** Subscribes to a policy event (`retry`, `give_up`, `break`, `half_open`, `reset`, `reroute`); returns the unsubscriber. */
  on<K extends PolicyEventName>(name: K, listener: PolicyListener<K>): () => void {
    return this.#events.on(name, listener);
  }

  /** The state of the breaker of `tool`. */
  breakerState(tool: string): BreakerState {
    return this.#breakers?.state(tool) ?? 'closed';
  }

  /** Lists the server's tools (no retries; connection failures reject with the SDK's error). */
  async listTools(): Promise<readonly Tool[]> {
    return this.#connection.listTools();
  }

  /**
   * Calls `tool` through the stack. Resolves with the result and its attempt log; rejects with a
   * {@link RecourseCallError}: `CALL_TOOL_FAILED` (remote `isError`), `CALL_PROTOCOL_ERROR` (remote JSON-RPC
   * error), or a local `CALL_TIMEOUT`, `CALL_CANCELLED`, `CALL_TRANSPORT`, `CALL_CIRCUIT_OPEN`,
   * `CALL_BULKHEAD_FULL`, `CALL_AMBIGUOUS`, `CALL_INPUT_FAILED` (an input handler threw), `CALL_SIGN_IN_REQUIRED`
   * (OAuth credentials refused and not refreshable). After {@link close} it rejects at once with a
   * `ClientClosedError` (code `CLIENT_CLOSED`), which is not a call failure.
   */
  callTool(
    tool: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<CallSuccess> {
    if (this.#closed) return Promise.reject(new ClientClosedError(this.name));
    const route = this.#options.fallbacks?.[tool];
    const guarded = this.#guarded(tool, args, options);
    return route === undefined
      ? guarded
      : guarded.catch((error: unknown) => this.#reroute(route, tool, args, options, error));
  }

  /** Like {@link callTool}, but resolves with `{ ok: false, error }` instead of rejecting on a call failure. */
  tryCallTool(
    tool: string,
    args: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<CallOutcome> {
    return this.callTool(tool, args, options).then(succeeded, failed);
  }

  /** Takes the fallback route of `tool` when its breaker refused the call; any other failure passes through. */
  async #reroute(
    route: FallbackRoute,
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
    error: unknown,
  ): Promise<CallSuccess> {
    if (!isRecourseCallError(error) || error.code !== 'CALL_CIRCUIT_OPEN') throw error;
    const target = route.client ?? this;
    this.#events.emit('reroute', { server: this.name, tool, toServer: target.name, toTool: route.tool });
    const rerouted = await target.#guarded(
      route.tool,
      route.mapArguments ? route.mapArguments(args) : args,
      options,
    );
    return { ...rerouted, reroutedFrom: { server: this.name, tool, reason: 'circuit_open' } };
  }

  /**
   * Waits for a task started earlier (by this or another process) from its persisted reference, under the task
   * policy, and settles like {@link callTool}. Rejects with a `ClientClosedError` after {@link close}, and with
   * an `Error` when the client makes no task-backed calls (`tasks: false` or a stdio target).
   */
  async resumeTask(
    reference: TaskReference,
    options: Pick<CallOptions, 'signal' | 'timeoutMs'> & { readonly task?: TaskCallOptions } = {},
  ): Promise<CallSuccess> {
    if (this.#closed) throw new ClientClosedError(this.name);
    if (this.#tasks === undefined)
      throw new Error(
        `The Recourse client of ${this.name} makes no task-backed calls (tasks: false, or not an HTTP target), so it cannot resume task ${reference.taskId}.`,
      );
    const settled = await this.#tasks.resume(
      {
        server: this.name,
        tool: reference.tool,
        signal: options.signal,
        requestTimeoutMs: options.timeoutMs ?? this.#options.timeoutMs ?? 30_000,
        options: options.task ?? {},
      },
      reference.taskId,
    );
    return {
      result: settled.result,
      server: this.name,
      tool: reference.tool,
      attempts: settled.attempts,
      taskId: reference.taskId,
    };
  }

  /** Closes the connection; later calls reject at once with `ClientClosedError` (code `CLIENT_CLOSED`). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#tasks?.close();
    await this.#connection.close();
  }

  /**
   * Bulkhead → breaker → retry → deadline → call. A call that finds a free slot and a closed breaker reaches
   * {@link #retried} without an asynchronous step of its own; {@link #retried} gives the slot back and tells the
   * breaker how the call ended.
   */
  #guarded(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<CallSuccess> {
    try {
      if (options.signal?.aborted) return Promise.reject(cancelledBeforeSending(this.name, tool));
      const bulkhead = this.#bulkhead;
      if (bulkhead !== undefined && !bulkhead.tryEnter()) return this.#queued(bulkhead, tool, args, options);
      return this.#admitted(tool, args, options);
    } catch (error) {
      // Whatever went wrong (options that are not an object, say) rejects, as from any asynchronous step.
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Waits for a slot of the full bulkhead, then goes on as {@link #guarded}. */
  async #queued(
    bulkhead: Bulkhead,
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallSuccess> {
    try {
      await bulkhead.wait(options.signal);
    } catch (error) {
      if (error instanceof BulkheadRefused && error.refusal === 'full') throw bulkheadFull(this.name, tool);
      throw cancelledBeforeSending(this.name, tool);
    }
    return this.#admitted(tool, args, options);
  }

  /** Holding a bulkhead slot (if any): asks the tool's breaker, and runs the call when it lets it through. */
  #admitted(tool: string, args: Record<string, unknown>, options: CallOptions): Promise<CallSuccess> {
    const breaker = this.#breakers?.get(tool);
    const admission = breaker?.admit();
    if (admission === 'open' || admission === 'testing') {
      this.#bulkhead?.leave();
      return Promise.reject(circuitOpen(this.name, tool, admission, this.#breakers?.halfOpenAfterMs ?? 0));
    }
    return this.#retried(tool, args, options, breaker, admission);
  }

  /**
   * The call's attempts under its deadline. It holds the call's bulkhead slot, if any, and gives it back at the
   * end, and tells the breaker that admitted the call how it ended: one asynchronous frame for the whole stack.
   */
  async #retried(
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
    breaker: ToolBreaker | undefined,
    admission: Admission | undefined,
  ): Promise<CallSuccess> {
    try {
      const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs ?? 30_000;
      const maxTimeoutMs = options.maxTimeoutMs ?? this.#options.maxTimeoutMs ?? timeoutMs * 4;
      const deadline = new Deadline({ timeoutMs, maxTimeoutMs });
      const traits =
        this.#catalog.known(tool) ?? (await this.#catalog.traits(tool, deadline.remaining(), options.signal));
      if (options.signal?.aborted) throw cancelledBeforeSending(this.name, tool);
      let callArgs = args;
      const keyArgument = traits.idempotencyArgument;
      if (keyArgument !== undefined && callArgs[keyArgument] === undefined) {
        callArgs = { ...callArgs, [keyArgument]: options.idempotencyKey ?? randomUUID() };
      }
      const keyed = keyArgument !== undefined && typeof callArgs[keyArgument] === 'string';
      let success: CallSuccess;
      if (
        this.#tasks &&
        options.task !== false &&
        (options.task !== undefined || traits.task !== undefined)
      ) {
        const settled = await this.#tasks.call({
          server: this.name,
          tool,
          args: callArgs,
          signal: options.signal,
          requestTimeoutMs: timeoutMs,
          options: options.task ?? {},
        });
        const { taskId } = settled;
        success = {
          result: settled.result,
          server: this.name,
          tool,
          attempts: settled.attempts,
          ...(taskId ? { taskId } : {}),
        };
      } else {
        const plan: AttemptPlan = {
          server: this.name,
          tool,
          args: callArgs,
          connection: this.#connection,
          deadline,
          signal: options.signal,
          safe: traits.readOnly === true || traits.idempotent === true || keyed,
          log: [],
          renegotiated: false,
          onProgress: options.onProgress,
        };
        let result: CallToolResult;
        try {
          result = await runAttempt(plan, 1, 0);
        } catch (error) {
          result = await this.#retryAfter(plan, options, error as RecourseCallError);
        }
        success = { result, server: this.name, tool, attempts: plan.log };
      }
      if (admission !== undefined) breaker?.settle(admission);
      return success;
    } catch (error) {
      if (admission !== undefined) breaker?.settle(admission, error);
      if (options.signal?.aborted && !isRecourseCallError(error))
        throw cancelledBeforeSending(this.name, tool);
      throw error;
    } finally {
      this.#bulkhead?.leave();
    }
  }

  /** Retries after a failed first attempt; rejects with the last failure, carrying the attempt log. */
  async #retryAfter(
    plan: AttemptPlan,
    options: CallOptions,
    first: RecourseCallError,
  ): Promise<CallToolResult> {
    const { tool } = plan;
    try {
      return await retryAfterFailure(
        {
          options: options.retry ?? this.#options.retry ?? {},
          deadline: plan.deadline,
          signal: options.signal,
          attempt: (n, wait) => runAttempt(plan, n, wait),
          verdict: (error) => retryVerdict(error, plan.safe),
          onRetry: (info) => this.#events.emit('retry', { server: this.name, tool, ...info }),
          onGiveUp: (error, reason, attempts) =>
            this.#events.emit('give_up', { server: this.name, tool, attempts, reason, error }),
        },
        first,
      );
    } catch (error) {
      let failure = error as RecourseCallError;
      if (options.signal?.aborted && failure.code !== 'CALL_CANCELLED') {
        const tookEffect = plan.log.some((a) => a.mayHaveReachedServer === true);
        failure = new LocalCallError({
          server: this.name,
          tool,
          reason: 'cancelled',
          mayHaveReachedServer: tookEffect,
          cause: failure,
          message: `The call of ${tool} was cancelled by the caller while waiting to retry, after ${String(plan.log.length)} attempt(s). ${
            tookEffect
              ? 'An earlier attempt may have taken effect on the server.'
              : 'No attempt got as far as doing work on the server, so nothing was changed.'
          } The last attempt failed: ${failure.message}`,
        });
      }
      failure.attempts = plan.log;
      throw failure;
    }
  }
}

/** {@link RecourseClient.tryCallTool}'s outcome of a call that succeeded. */
function succeeded(value: CallSuccess): CallOutcome {
  return { ok: true, value };
}

/** {@link RecourseClient.tryCallTool}'s outcome of a call that failed; what is not a call failure rejects. */
function failed(error: unknown): CallOutcome {
  if (isRecourseCallError(error)) return { ok: false, error };
  throw error;
}

/** Whether a failure may be repeated: it must be worth repeating, and repeating must be safe. */
function retryVerdict(error: RecourseCallError, safe: boolean): true | 'not_retryable' | 'unsafe' {
  if (error.kind === 'tool') {
    if (!error.retryable) return 'not_retryable';
    return safe || error.failure?.changed === false ? true : 'unsafe';
  }
  if (error.kind === 'protocol') {
    return error.retryable ? true : 'not_retryable';
  }
  if (error.reason !== 'transport' || !error.retryable) return 'not_retryable';
  return safe || !error.mayHaveReachedServer ? true : 'unsafe';
}

/**
 * Creates a resilient client of one MCP server; it connects on the first call. Throws
 * `InvalidClientOptionsError` (`INVALID_CLIENT_OPTIONS`) for an input capability without its handler or the reverse.
 */
export function createRecourseClient(options: RecourseClientOptions): RecourseClient {
  return new RecourseClient(options);
}
