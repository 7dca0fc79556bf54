/**
 * The conformance suite's tasks-extension fixtures (`io.modelcontextprotocol/tasks`): a sync tool, a slow task
 * that honours cancellation, a task whose tool fails, one that fails with a protocol error, tasks that ask for
 * input through `tasks/update`, and one that gathers input by multi-round trip before it becomes a task.
 *
 * @packageDocumentation
 */
import {
  inputRequired,
  inputResponse,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { RawTaskRun, RawTool } from '@recourse/server';
import { askField } from './mrtr-tools.ts';

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** Waits `ms`, or rejects with the signal's reason when it fires first. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}

function seconds(args: Record<string, unknown>): number {
  const value = args['seconds'];
  return typeof value === 'number' && Number.isFinite(value) ? Math.min(Math.max(value, 0), 120) : 1;
}

function word(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function accepted(view: unknown): Record<string, unknown> | undefined {
  if (typeof view !== 'object' || view === null) return undefined;
  const record = view as Record<string, unknown>;
  if (record['action'] !== 'accept') return undefined;
  const content = record['content'];
  return typeof content === 'object' && content !== null ? (content as Record<string, unknown>) : {};
}

const slowCompute: RawTool = {
  name: 'slow_compute',
  description:
    'Conformance fixture: waits `seconds` (0 to 120), then answers; as a task it stops on tasks/cancel.',
  inputSchema: {
    type: 'object',
    properties: { seconds: { type: 'number' }, label: { type: 'string' } },
  },
  handler: async (args) => {
    await pause(seconds(args) * 1000);
    return text(`Computed ${word(args['label'], 'result')} after ${seconds(args)} s.`);
  },
  task: {
    support: 'optional',
    start:
      (args): RawTaskRun =>
      async (work) => {
        await pause(seconds(args) * 1000, work.signal);
        return text(`Computed ${word(args['label'], 'result')} after ${seconds(args)} s.`);
      },
  },
};

const toolError = (): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: 'The job failed on purpose (conformance fixture). Nothing was changed.' }],
});

const failingJob: RawTool = {
  name: 'failing_job',
  description:
    'Conformance fixture: always ends with a tool execution error after about a second; needs a task.',
  inputSchema: { type: 'object', properties: {} },
  handler: () => toolError(),
  task: {
    support: 'required',
    start: (): RawTaskRun => async (work) => {
      await pause(1000, work.signal);
      return toolError();
    },
  },
};

const protocolErrorJob: RawTool = {
  name: 'protocol_error_job',
  description: 'Conformance fixture: as a task, ends with a JSON-RPC internal error (the task fails).',
  inputSchema: { type: 'object', properties: {} },
  handler: () => {
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      'The job crashed on purpose (conformance fixture).',
    );
  },
  task: {
    support: 'optional',
    start: (): RawTaskRun => async (work) => {
      await pause(200, work.signal);
      throw new ProtocolError(
        ProtocolErrorCode.InternalError,
        'The job crashed on purpose (conformance fixture).',
      );
    },
  },
};

const confirmDelete: RawTool = {
  name: 'confirm_delete',
  description:
    'Conformance fixture: as a task, asks the client to confirm deleting `filename`, then answers.',
  inputSchema: { type: 'object', properties: { filename: { type: 'string' } } },
  handler: (args) => text(`Would delete ${word(args['filename'], 'the file')} (no task: nothing asked).`),
  task: {
    support: 'optional',
    start:
      (args): RawTaskRun =>
      async (work) => {
        const answers = await work.input({
          confirm: askField(`Delete ${word(args['filename'], 'the file')}?`, 'confirm', 'boolean'),
        });
        const content = accepted(answers['confirm']);
        return text(content?.['confirm'] === true ? 'Deleted (conformance fixture).' : 'Not deleted.');
      },
  },
};

const multiInput: RawTool = {
  name: 'multi_input',
  description:
    'Conformance fixture: as a task, asks two questions at once and answers when both are answered.',
  inputSchema: { type: 'object', properties: {} },
  handler: () => text('Nothing asked without a task.'),
  task: {
    support: 'optional',
    start: (): RawTaskRun => async (work) => {
      const answers = await work.input({
        first: askField('First name?', 'name'),
        second: askField('Confirm?', 'confirm', 'boolean'),
      });
      const names = [accepted(answers['first'])?.['name'], accepted(answers['second'])?.['name']];
      return text(`Got both answers: ${names.map(String).join(', ')}.`);
    },
  },
};

function askedName(ctx: ServerContext): string | undefined {
  const view = inputResponse(ctx.mcpReq.inputResponses, 'user_name');
  const name = view.kind === 'elicit' && view.action === 'accept' ? view.content?.['name'] : undefined;
  return typeof name === 'string' ? name : undefined;
}

const toolWithTask: RawTool = {
  name: 'test_tool_with_task',
  description: 'Conformance fixture: asks for a name (multi-round trip), then greets it from a task.',
  inputSchema: { type: 'object', properties: {} },
  handler: () => text('This fixture needs the tasks extension.'),
  task: {
    support: 'required',
    start: (_args, ctx) => {
      const name = askedName(ctx);
      if (name === undefined)
        return inputRequired({ inputRequests: { user_name: askField('What is your name?', 'name') } });
      return async (work) => {
        await pause(100, work.signal);
        return text(`Hello, ${name}! (from a task)`);
      };
    },
  },
};

const greet: RawTool = {
  name: 'greet',
  description: 'Conformance fixture: greets `name`; never a task.',
  inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  handler: (args) => text(`Hello, ${String(args['name'])}!`),
};

/** The tasks-extension fixtures of the conformance suite. */
export function taskFixtureTools(): RawTool[] {
  return [greet, slowCompute, failingJob, protocolErrorJob, confirmDelete, multiInput, toolWithTask];
}
