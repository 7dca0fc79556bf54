/**
 * A Vercel AI SDK agent on a real Recourse Board through `@recourse/client/ai-sdk`. The model is the AI SDK's
 * mock (`MockLanguageModelV3`), scripted to ask for three tool calls in its first step: a task that does not
 * exist, a task created with a title of the wrong type, and a good one. The second step records what the model
 * was shown: the two failures as error tool results carrying the board's sentences, the success as its text.
 *
 * Run it on its own with `npx tsx examples/ai-sdk-agent/agent.ts`.
 */
import { pathToFileURL } from 'node:url';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { LanguageModelV3GenerateResult, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { createRecourseClient } from '@recourse/client';
import { createAiSdkTools } from '@recourse/client/ai-sdk';
import { startExampleBoard } from '../support/example-board.ts';

/** One tool result as the model was shown it in its next step. */
export interface SeenToolResult {
  readonly toolName: string;
  /** `error-text` for a failure, `text` for a success. */
  readonly type: string;
  readonly value: unknown;
}

/** What the agent run produced. */
export interface AiSdkAgentReport {
  /** The tool results in the prompt of the model's second step, in call order. */
  readonly seen: SeenToolResult[];
  /** The model's final answer. */
  readonly text: string;
}

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 10, text: 10, reasoning: undefined },
};

function toolCall(
  id: string,
  toolName: string,
  input: object,
): LanguageModelV3GenerateResult['content'][number] {
  return { type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) };
}

/** The tool results of the last tool message of a prompt. */
function toolResultsIn(prompt: LanguageModelV3Prompt): SeenToolResult[] {
  const seen: SeenToolResult[] = [];
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output as { type: string; value?: unknown };
      seen.push({ toolName: part.toolName, type: output.type, value: output.value });
    }
  }
  return seen;
}

/** Runs the scripted agent against the board at `url` with the member's `token`. */
export async function runAiSdkAgent(board: { url: string; token: string }): Promise<AiSdkAgentReport> {
  const client = createRecourseClient({ target: { url: board.url, token: board.token }, name: 'board' });
  try {
    const tools = await createAiSdkTools(client, {
      tools: ['tasks_get', 'tasks_create'],
      call: { timeoutMs: 10_000 },
    });
    const model = new MockLanguageModelV3({
      doGenerate: [
        {
          content: [
            toolCall('call-1', 'tasks_get', { ref: 'T-404' }),
            toolCall('call-2', 'tasks_create', { title: 42 }),
            toolCall('call-3', 'tasks_create', { title: 'Write the release notes' }),
          ],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage: USAGE,
          warnings: [],
        },
        {
          content: [{ type: 'text', text: 'T-404 does not exist; the release-notes task is created.' }],
          finishReason: { unified: 'stop', raw: undefined },
          usage: USAGE,
          warnings: [],
        },
      ],
    });
    const result = await generateText({
      model,
      tools,
      prompt: 'Look at T-404, then file the release-notes task.',
      stopWhen: stepCountIs(3),
    });
    const second = model.doGenerateCalls[1];
    return { seen: second ? toolResultsIn(second.prompt) : [], text: result.text };
  } finally {
    await client.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const board = await startExampleBoard();
  try {
    const report = await runAiSdkAgent(board);
    for (const seen of report.seen) console.log(`${seen.toolName} → ${seen.type}: ${String(seen.value)}`);
    console.log(`model: ${report.text}`);
  } finally {
    await board.close();
  }
}
