/**
 * Pipeline step 7, second half: what a call answers. Successes become text (and structured content); purposeful
 * failures become `isError` results; anything else becomes a redacted `internal` failure, logged in full.
 *
 * @packageDocumentation
 */
import {
  encodeFailure,
  internalFailure,
  isToolFailure,
  redactText,
  transientFailure,
  type ToolFailure,
} from '@recourse/core';
import type { FailureCategory, FailureData, RedactionRule } from '@recourse/core';
import type { CallToolResult, InputRequiredResult } from '@modelcontextprotocol/server';
import type { Logger } from '../logger.ts';
import type { ToolSuccess } from '../contract.ts';
import { CallCancelledError, DeadlineExceededError } from '../call-scope.ts';

/** The `_meta` key under which every result carries its call's correlation id: `{ correlationId }`. */
export const CALL_META_KEY = 'dev.recourse/call';

/** A mapped answer with what the call log needs. */
export interface MappedResult {
  /** The answer; an input-required result only comes from a raw tool on 2026-07-28. */
  readonly result: CallToolResult | InputRequiredResult;
  readonly outcome: 'ok' | FailureCategory;
  readonly code: string | null;
  /** Set when the call was submitted as a task (or replayed such a submission): the task's id. */
  readonly taskId?: string;
  /** True when an idempotency key replayed an earlier result instead of running the handler. */
  readonly replayed?: boolean;
}

/** Facts about the call that the failure mapping needs. */
export interface FailureContext {
  readonly tool: string;
  readonly correlationId: string;
  /** A logger already bound to the call's `correlationId` and `tool`. */
  readonly logger: Logger;
  /** Whether the call committed a write before it failed. */
  readonly changed: boolean;
  readonly principalId: string | null;
  /** Whether the call carried an idempotency key (a retry with it replays the result). */
  readonly keyed: boolean;
  /** The redaction rules of failure texts (default: core's built-in table). */
  readonly rules?: readonly RedactionRule[];
}

/**
 * A success as a tool result: the text (passed through `rules` as a second line of defence; unchanged without
 * rules) and structured content (never redacted).
 */
export function mapSuccess(
  success: ToolSuccess,
  correlationId: string,
  rules: readonly RedactionRule[] | undefined,
): MappedResult {
  return {
    result: {
      content: [{ type: 'text', text: rules === undefined ? success.text : redactText(success.text, rules) }],
      ...(success.structuredContent === undefined ? {} : { structuredContent: success.structuredContent }),
      _meta: { [CALL_META_KEY]: { correlationId } },
    },
    outcome: 'ok',
    code: null,
  };
}

function deadlineFailure(error: DeadlineExceededError, ctx: FailureContext): ToolFailure {
  const within = ` within its deadline of ${String(error.deadlineMs)} ms`;
  return transientFailure({
    code: 'DEADLINE_EXCEEDED',
    message: `The call to ${ctx.tool} did not finish${within}.`,
    next: ctx.keyed
      ? 'Repeat the call with the same idempotencyKey: it returns the result if the work finished meanwhile, and does it once otherwise.'
      : ctx.changed
        ? `Read the current state before repeating the call to ${ctx.tool}, so that nothing is done twice.`
        : 'Repeat the call later, or with a narrower request.',
    retryAfterMs: 1000,
    changed: ctx.changed,
    correlationId: ctx.correlationId,
  });
}

function cancelledFailure(error: CallCancelledError, ctx: FailureContext): ToolFailure {
  if (error.byServer) {
    return transientFailure({
      code: 'CALL_CANCELLED',
      message: `The call to ${ctx.tool} was stopped before it finished: ${error.reason}.`,
      next: ctx.keyed
        ? 'Send the same call again with the same idempotencyKey: another instance does the work once, or replays its result if it was done.'
        : ctx.changed
          ? `Read the current state before repeating the call to ${ctx.tool}, so that nothing is done twice.`
          : `Send the same call to ${ctx.tool} again; another instance will serve it.`,
      retryAfterMs: 1000,
      changed: ctx.changed,
      correlationId: ctx.correlationId,
    });
  }
  return transientFailure({
    code: 'CALL_CANCELLED',
    message: `The call to ${ctx.tool} was cancelled by the caller.`,
    retryAfterMs: 0,
    changed: ctx.changed,
    correlationId: ctx.correlationId,
  });
}

/**
 * Maps anything a call threw to an `isError` result: a `ToolFailure` as written plus the correlation id; a
 * deadline as `transient` / `DEADLINE_EXCEEDED`; a cancellation as `transient` / `CALL_CANCELLED` (the SDK does
 * not send it); anything else as `internal` with nothing of the original in the text, logged in full under the
 * correlation id.
 */
export function mapFailure(error: unknown, ctx: FailureContext): MappedResult {
  let failure: FailureData;
  if (isToolFailure(error)) {
    // The failure as written plus the correlation id: encoded straight from its data, not from a copy of the error.
    failure = { ...error.failure, correlationId: ctx.correlationId };
    ctx.logger.info({ principalId: ctx.principalId, code: failure.code }, 'tool call refused');
  } else if (error instanceof DeadlineExceededError) {
    failure = deadlineFailure(error, ctx).failure;
    ctx.logger.warn({ principalId: ctx.principalId, changed: ctx.changed }, 'tool call missed its deadline');
  } else if (error instanceof CallCancelledError) {
    failure = cancelledFailure(error, ctx).failure;
    ctx.logger.info({ principalId: ctx.principalId }, 'tool call cancelled');
  } else {
    failure = internalFailure({
      tool: ctx.tool,
      correlationId: ctx.correlationId,
      changed: ctx.changed,
    }).failure;
    ctx.logger.error({ err: error, principalId: ctx.principalId }, 'tool handler failed');
  }
  return {
    result: encodeFailure(failure, ctx.rules),
    outcome: failure.category,
    code: failure.code,
  };
}
