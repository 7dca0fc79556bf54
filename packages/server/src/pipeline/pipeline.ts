/**
 * The tool pipeline: the one place where the order of the steps is written down.
 *
 * @packageDocumentation
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { Logger } from '../logger.ts';
import type { RedactionRule } from '@recourse/core';
import type {
  IdempotencyStore,
  PermissionPolicy,
  Principal,
  PrincipalRecheck,
  SuccessRedaction,
  TransportLeg,
} from '../contract.ts';
import type { ResolvedGuidance } from './refusal-guidance.ts';
import type { CatalogTool } from '../tool-catalog.ts';
import type { InflightRegistry } from '../inflight-registry.ts';
import type { RateLimits } from '../rate-limits.ts';
import { openCallScope } from '../call-scope.ts';
import { lazyChildLogger } from '../lazy-child-logger.ts';
import { recheckPrincipal, requirePrincipal } from './principal-step.ts';
import { checkPermission } from './permission-step.ts';
import { checkRateLimit } from './rate-limit-step.ts';
import { validateArguments } from './validation-step.ts';
import { runIdempotent, type IdempotentCall } from './idempotency-step.ts';
import { raceScope, startHandler, watchLateOutcome } from './handler-step.ts';
import { createToolContext } from './tool-context.ts';
import { mapFailure, mapSuccess, type MappedResult } from './result-mapping.ts';
import { taskRefOf, type TaskSubmitter } from '../tasks/task-submission.ts';

/** What the pipeline shares across calls of one server. */
export interface PipelineEnv {
  /** None: no permission step (a server without roles). */
  readonly permissions?: PermissionPolicy;
  /** How refusals name the caller and what they tell it to do next. */
  readonly guidance: ResolvedGuidance;
  readonly rateLimits: RateLimits;
  readonly idempotency: { readonly store: IdempotencyStore; readonly ttlMs: number };
  readonly inflight: InflightRegistry;
  readonly logger: Logger;
  /** The success redaction of a tool that does not choose its own. */
  readonly successRedaction: SuccessRedaction;
  /** Every rule failure texts pass through (the built-in table plus the server's own). */
  readonly redactionRules: readonly RedactionRule[];
  /** The rules of `'secrets'` success redaction (the built-in secret rules plus the server's own). */
  readonly secretRules: readonly RedactionRule[];
  /** Checks the caller again on every call of the `stdio` leg (step 1); none: the host's principal holds. */
  readonly recheckPrincipal?: PrincipalRecheck;
}

/** The rules a success text of `mode` passes through; `undefined` for none. */
export function successRules(mode: SuccessRedaction, env: PipelineEnv): readonly RedactionRule[] | undefined {
  if (mode === 'none') return undefined;
  return mode === 'all' ? env.redactionRules : env.secretRules;
}

/** One `tools/call` of a pipeline tool. */
export interface PipelineCall {
  readonly tool: CatalogTool;
  readonly rawArguments: unknown;
  readonly principal: Principal | undefined;
  /** The transport leg the call came on; only `stdio` calls are checked again by `env.recheckPrincipal`. */
  readonly transport: TransportLeg;
  readonly sdk: ServerContext;
  readonly correlationId: string;
  /** Epoch milliseconds when the call arrived; the deadline counts from here. */
  readonly startedAt: number;
  /**
   * Set when the call runs as a task: after the guards (and the idempotency claim) this starts the task instead
   * of running the handler, and the result names the task (`MappedResult.taskId`).
   */
  readonly asTask?: TaskSubmitter;
}

/**
 * Runs one call through the pipeline, in this order: 1 principal, 2 permission, 3 rate limit, 4 validation,
 * 5 idempotency, 6 deadline and cancellation, 7 handler and mapping. Never throws: every outcome is a result.
 * The call's signal (deadline, SDK cancellation, {@link InflightRegistry.cancel}) exists from arrival, so that a
 * call waiting on another call's idempotency key is bounded by its own deadline too.
 */
export async function runPipeline(call: PipelineCall, env: PipelineEnv): Promise<MappedResult> {
  const { definition } = call.tool;
  const logger = lazyChildLogger(env.logger, { correlationId: call.correlationId, tool: definition.name });
  const scope = openCallScope({
    tool: definition.name,
    deadlineMs: call.tool.deadlineMs,
    startedAt: call.startedAt,
    upstream: call.sdk.mcpReq.signal,
  });
  let unregister = (): void => undefined;
  let keyed = false;
  try {
    const needsIdentity = env.permissions !== undefined && definition.permission !== undefined;
    const principal = await recheckPrincipal(
      requirePrincipal(call.principal, definition.name, needsIdentity, env.guidance),
      definition.name,
      call.transport,
      env.recheckPrincipal,
      env.guidance,
    ); // 1
    unregister = env.inflight.register(principal.id, call.sdk.mcpReq.id, scope);
    checkPermission(principal, definition, env.permissions, env.guidance); // 2
    await checkRateLimit(principal, definition.name, call.tool.cost, env.rateLimits, env.guidance); // 3
    const { args, idempotencyKey } = validateArguments(call.tool, call.rawArguments); // 4
    const ctx = createToolContext({
      principal,
      scope,
      correlationId: call.correlationId,
      logger,
      sdk: call.sdk,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
    const keyedCall = (key: string): IdempotentCall => ({
      ...env.idempotency,
      principalId: principal.id,
      tool: definition.name,
      key,
      args,
      scope,
      logger,
    });
    if (call.asTask !== undefined) {
      const submit = call.asTask;
      const submission = { principal, args, ...(idempotencyKey === undefined ? {} : { idempotencyKey }) };
      keyed = idempotencyKey !== undefined;
      const outcome =
        idempotencyKey === undefined
          ? { success: await raceScope(submit(submission), scope), replayed: false }
          : await runIdempotent(keyedCall(idempotencyKey), () => submit(submission)); // 5
      if (outcome.replayed) logger.info('idempotent task submission replayed');
      const taskId = taskRefOf(outcome.success);
      if (taskId !== undefined)
        return { result: { content: [] }, outcome: 'ok', code: 'TASK_SUBMITTED', taskId };
      return mapSuccess(
        outcome.success,
        call.correlationId,
        successRules(definition.successRedaction ?? env.successRedaction, env),
      );
    }
    const start = (): ReturnType<typeof startHandler> => {
      const work = startHandler(definition, args, ctx); // 6, 7
      watchLateOutcome(work, scope, logger);
      return work;
    };
    const redaction = successRules(definition.successRedaction ?? env.successRedaction, env);
    if (idempotencyKey === undefined)
      return mapSuccess(await raceScope(start(), scope), call.correlationId, redaction);
    keyed = true;
    const outcome = await runIdempotent(keyedCall(idempotencyKey), start); // 5
    if (outcome.replayed) logger.info('idempotent call replayed');
    const mapped = mapSuccess(outcome.success, call.correlationId, redaction);
    return outcome.replayed ? { ...mapped, replayed: true } : mapped;
  } catch (error) {
    return mapFailure(error, {
      tool: definition.name,
      correlationId: call.correlationId,
      logger,
      changed: scope.changed,
      principalId: call.principal?.id ?? null,
      keyed,
      rules: env.redactionRules,
    });
  } finally {
    scope.close();
    unregister();
  }
}
