import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3GenerateResult } from '@ai-sdk/provider';
import { ToolMessage } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { createRecourseClient } from '../index.ts';
import type { RecourseClient } from '../index.ts';
import { startFaultServer } from '../testing/index.ts';
import type { FaultServer } from '../testing/index.ts';
import { AgentToolError, createAiSdkTools } from '../ai-sdk/index.ts';
import { createLangChainTools } from '../langchain/index.ts';

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A mock model that asks for one call of `tool` with `input`, then answers "done". */
function oneCallModel(tool: string, input: object): MockLanguageModelV3 {
  const steps: LanguageModelV3GenerateResult[] = [
    {
      content: [{ type: 'tool-call', toolCallId: 'c1', toolName: tool, input: JSON.stringify(input) }],
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage: USAGE,
      warnings: [],
    },
    {
      content: [{ type: 'text', text: 'done' }],
      finishReason: { unified: 'stop', raw: undefined },
      usage: USAGE,
      warnings: [],
    },
  ];
  return new MockLanguageModelV3({ doGenerate: steps });
}

async function until(check: () => boolean, timeoutMs = 3000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
  return check();
}

let server: FaultServer;
let client: RecourseClient;

beforeEach(async () => {
  server = await startFaultServer();
  client = createRecourseClient({
    target: { url: server.url },
    name: 'faults',
    retry: { maxAttempts: 3, initialDelayMs: 5, maxDelayMs: 20 },
  });
});
afterEach(async () => {
  await client.close();
  await server.close();
});

describe('AI SDK tools of @recourse/client/ai-sdk', () => {
  it('retries a transient failure of a read-only tool and shows the model only the success', async () => {
    server.inject('search', {
      kind: 'tool_failure',
      category: 'transient',
      message: 'The index is warming up.',
    });
    const model = oneCallModel('search', { query: 'login' });
    const result = await generateText({
      model,
      tools: await createAiSdkTools(client, { tools: ['search'] }),
      prompt: 'search',
      stopWhen: stepCountIs(2),
    });
    expect(server.requests('search')).toBe(2);
    expect(result.text).toBe('done');
    const toolMessage = model.doGenerateCalls[1]?.prompt.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toEqual([
      expect.objectContaining({
        type: 'tool-result',
        toolName: 'search',
        output: { type: 'text', value: 'search found nothing for login' },
      }),
    ]);
  });

  it("cancels the call on the server when generateText's abortSignal fires", async () => {
    server.inject('echo', { kind: 'hang' });
    const controller = new AbortController();
    const run = generateText({
      model: oneCallModel('echo', { text: 'x' }),
      tools: await createAiSdkTools(client, { tools: ['echo'] }),
      prompt: 'echo',
      stopWhen: stepCountIs(2),
      abortSignal: controller.signal,
    });
    expect(await until(() => server.requests('echo') === 1)).toBe(true);
    controller.abort();
    await run.catch(() => undefined);
    expect(await until(() => server.state.cancellations.length === 1)).toBe(true);
    expect(server.state.cancellations[0]?.tool).toBe('echo');
  });

  it('throws AgentToolError carrying the typed failure when a tool is executed directly', async () => {
    server.inject('record', {
      kind: 'tool_failure',
      category: 'conflict',
      code: 'STALE',
      message: 'The note changed meanwhile; read it again.',
    });
    const tools = await createAiSdkTools(client, { tools: ['record'] });
    const execute = tools['record']?.execute;
    if (!execute) throw new Error('the tool has no execute');
    const failure = await Promise.resolve(execute({ note: 'n' }, { toolCallId: 't', messages: [] })).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(AgentToolError);
    const error = failure as AgentToolError;
    expect(error.message).toMatch(/^\[conflict\] The note changed meanwhile; read it again\./);
    expect(error.failure.kind === 'tool' && error.failure.category).toBe('conflict');
  });

  it('names the missing tools when options.tools asks for a tool the server does not have', async () => {
    await expect(createAiSdkTools(client, { tools: ['echo', 'nope'] })).rejects.toThrow(
      /faults has no tool nope; it has .*echo.*Pass names from that list/,
    );
  });
});

describe('LangChain tools of @recourse/client/langchain', () => {
  it("shows a model the server's input schema unchanged (bindTools' OpenAI form) and leaves validating to the server", async () => {
    const listed = (await client.listTools()).find((tool) => tool.name === 'echo');
    const [echo] = await createLangChainTools(client, { tools: ['echo'] });
    if (!echo || !listed) throw new Error('no echo tool');
    expect(convertToOpenAITool(echo).function).toEqual({
      name: 'echo',
      description: 'Returns its text.',
      parameters: listed.inputSchema,
    });
    const wrong = await echo.invoke({ id: 'c1', name: 'echo', args: { text: 7 }, type: 'tool_call' });
    expect(wrong).toBeInstanceOf(ToolMessage);
    expect((wrong as ToolMessage).status).toBe('error');
    expect((wrong as ToolMessage).content).toMatch(
      /^\[validation\] Input validation error: Invalid arguments for tool echo: text: .*expected string/,
    );
  });

  it("cancels the call on the server when the run's signal fires, and answers with an error ToolMessage", async () => {
    server.inject('echo', { kind: 'hang' });
    const [echo] = await createLangChainTools(client, { tools: ['echo'] });
    if (!echo) throw new Error('no echo tool');
    const controller = new AbortController();
    const run = echo.invoke(
      { id: 'c1', name: 'echo', args: { text: 'x' }, type: 'tool_call' },
      { signal: controller.signal },
    );
    expect(await until(() => server.requests('echo') === 1)).toBe(true);
    controller.abort();
    const outcome = await run.catch((error: unknown) => error);
    expect(await until(() => server.state.cancellations.length === 1)).toBe(true);
    expect(outcome).toBeInstanceOf(ToolMessage);
    const message = outcome as ToolMessage;
    expect(message.status).toBe('error');
    expect(message.content).toMatch(
      /^\[cancelled\] The call of echo was cancelled by the caller; the server was told to stop\./,
    );
    expect(message.artifact).toMatchObject({
      code: 'CALL_CANCELLED',
      reason: 'cancelled',
      mayHaveReachedServer: true,
    });
  });

  it('returns the text and throws AgentToolError when invoked with plain arguments', async () => {
    const [echo] = await createLangChainTools(client, { tools: ['echo'] });
    if (!echo) throw new Error('no echo tool');
    expect(await echo.invoke({ text: 'hello' })).toBe('hello');
    server.inject('echo', {
      kind: 'tool_failure',
      category: 'permission',
      code: 'DENIED',
      message: 'Only owners may echo.',
    });
    await expect(echo.invoke({ text: 'x' })).rejects.toThrow(/^\[permission\] Only owners may echo\./);
  });
});
