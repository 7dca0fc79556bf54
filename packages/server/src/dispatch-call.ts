/**
 * One `tools/call` of a Recourse server, from the tool's lookup to its call-log entry and answer.
 *
 * @packageDocumentation
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import { newCorrelationId, redactText } from '@recourse/core';
import type { CallObserver, Principal, TransportLeg } from './contract.ts';
import type { ToolCatalog } from './tool-catalog.ts';
import type { CallRecorder } from './call-recorder.ts';
import { runPipeline, successRules, type PipelineEnv } from './pipeline/pipeline.ts';
import { runRawTool } from './raw-tool-runner.ts';
import type { MappedResult } from './pipeline/result-mapping.ts';
import type { CreateTaskResultV2 } from '@modelcontextprotocol/ext-tasks/core/v2';
import type { TaskRuntime } from './tasks/task-runtime.ts';
import { declaresTasks, tasksExtensionRequired } from './tasks/task-methods.ts';
import { pipelineTaskSubmitter } from './tasks/task-submission.ts';
import { submitRawTask } from './tasks/raw-task.ts';
import { createTaskResult } from './tasks/task-wire.ts';

/** The -32602 for an unknown tool; `correlationId` is the call-log entry's, so the answer and the log meet. */
function unknownTool(name: string, correlationId: string): ProtocolError {
  const shown = redactText(name.length > 100 ? `${name.slice(0, 100)}…` : name);
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown tool: ${shown}. Call tools/list to see the tools available.`,
    { tool: shown, correlationId },
  );
}

/**
 * How long an answer waits for its call-log entry to be stored (ms): long enough for a database insert, short
 * enough that a slow log never holds answers back for long.
 */
const RECORD_PATIENCE_MS = 1000;

/** Resolves when `work` settles or `ms` passed, whichever is first; the timer does not outlive it. */
async function settledWithin(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** What a `tools/call` needs from its server: the tools, the pipeline environment, the call log and tasks. */
export interface Dispatch {
  readonly catalog: ToolCatalog;
  readonly env: PipelineEnv;
  readonly record: CallRecorder;
  readonly tasks?: TaskRuntime;
  readonly observer: CallObserver | undefined;
}

/** The answer to a submission that started (or replayed) a task; a replay of an expired task is a plain result. */
async function submissionAnswer(
  tasks: TaskRuntime,
  taskId: string,
  principalId: string,
  tool: string,
): Promise<CreateTaskResultV2 | CallToolResult> {
  try {
    return createTaskResult(await tasks.view(taskId, principalId));
  } catch {
    return {
      content: [
        {
          type: 'text',
          text:
            `This ${tool} call was already made with this idempotency key as task ${taskId}, which has expired. ` +
            `Nothing was done again; use a new idempotencyKey to run it anew.`,
        },
      ],
    };
  }
}

/**
 * Serves one `tools/call`: runs a pipeline or raw tool (or submits it as a task), records the call-log entry
 * (waiting for it up to 1 s unless the call was stopped) and tells the observer; an unknown tool is -32602.
 */
export async function dispatchCall(
  dispatch: Dispatch,
  name: string,
  rawArguments: unknown,
  principal: Principal | undefined,
  transport: TransportLeg,
  sdk: Parameters<typeof runPipeline>[0]['sdk'],
): Promise<CallToolResult | InputRequiredResult | CreateTaskResultV2> {
  const startedAt = Date.now();
  const correlationId = newCorrelationId();
  const principalId = principal?.id ?? null;
  const tool = dispatch.catalog.pipelineTool(name);
  const raw = tool === undefined ? dispatch.catalog.rawTool(name) : undefined;
  const known = tool !== undefined || raw !== undefined;
  const label = known ? name : 'unknown';
  const support = tool?.definition.task?.support ?? raw?.task?.support;
  const tasks = support === undefined || !declaresTasks(sdk) ? undefined : dispatch.tasks;
  const logEntry = (mapped: Pick<MappedResult, 'outcome' | 'code'>, durationMs: number): Promise<void> =>
    dispatch.record({
      at: new Date(startedAt).toISOString(),
      principalId,
      tool: known ? name : name.slice(0, 100),
      outcome: mapped.outcome,
      code: mapped.code,
      durationMs,
      correlationId,
    });
  dispatch.observer?.callStarted(label);
  try {
    if (support === 'required' && tasks === undefined) {
      await settledWithin(
        logEntry({ outcome: 'validation', code: 'TASKS_EXTENSION_REQUIRED' }, Date.now() - startedAt),
        RECORD_PATIENCE_MS,
      );
      throw tasksExtensionRequired(`The tool ${name}`);
    }
    const launch =
      tasks === undefined
        ? undefined
        : {
            runtime: tasks,
            tool: name,
            correlationId,
            logger: dispatch.env.logger,
            record: dispatch.record,
            ownerId: principalId ?? '',
          };
    let mapped: MappedResult;
    if (tool !== undefined) {
      const asTask =
        launch === undefined
          ? undefined
          : pipelineTaskSubmitter({
              ...launch,
              tool,
              logger: dispatch.env.logger.child({ correlationId, tool: name }),
              successRules: successRules(
                tool.definition.successRedaction ?? dispatch.env.successRedaction,
                dispatch.env,
              ),
            });
      mapped = await runPipeline(
        {
          tool,
          rawArguments,
          principal,
          transport,
          sdk,
          correlationId,
          startedAt,
          ...(asTask === undefined ? {} : { asTask }),
        },
        dispatch.env,
      );
    } else if (raw !== undefined) {
      const args = (rawArguments ?? {}) as Record<string, unknown>;
      mapped =
        launch !== undefined && raw.task !== undefined
          ? await submitRawTask(launch, () => raw.task!.start(args, sdk))
          : await runRawTool(raw, rawArguments, sdk, correlationId, dispatch.env.logger, principalId);
    } else {
      mapped = { result: { content: [] }, outcome: 'validation', code: 'UNKNOWN_TOOL' };
    }
    const durationMs = Date.now() - startedAt;
    const recording = logEntry(mapped, durationMs);
    // A stopped call answers at once (its handler may still hold the database); any other waits for its entry.
    const stopped = mapped.code === 'DEADLINE_EXCEEDED' || mapped.code === 'CALL_CANCELLED';
    if (!stopped) await settledWithin(recording, RECORD_PATIENCE_MS);
    dispatch.observer?.callFinished({
      tool: label,
      outcome: mapped.outcome,
      code: mapped.code,
      durationMs,
      replayed: mapped.replayed === true,
    });
    if (!known) throw unknownTool(name, correlationId);
    if (mapped.taskId !== undefined && tasks !== undefined)
      return await submissionAnswer(tasks, mapped.taskId, principalId ?? '', name);
    return mapped.result;
  } finally {
    dispatch.observer?.callEnded(label);
  }
}
