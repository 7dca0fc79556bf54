/**
 * A LangGraph agent on a real Recourse Board through `@recourse/client/langchain`: a model node and a prebuilt
 * `ToolNode` in a loop. The model is scripted (`ScriptedChatModel`): it creates a task with a title of the wrong
 * type (the board's validation sentence comes back, not LangChain's), then with a good title, then asks
 * `whoami` more often than the member's rate limit allows (the board's rate-limit sentence comes back, with
 * nothing appended to it). The report holds every `ToolMessage` the model read.
 *
 * Run it on its own with `npx tsx examples/langchain-agent/agent.ts`.
 */
import { pathToFileURL } from 'node:url';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode, toolsCondition } from '@langchain/langgraph/prebuilt';
import { createRecourseClient } from '@recourse/client';
import { createLangChainTools } from '@recourse/client/langchain';
import { startExampleBoard } from '../support/example-board.ts';
import { ScriptedChatModel } from './scripted-chat-model.ts';

/** A tool message as the model read it. */
export interface SeenToolMessage {
  readonly name: string;
  readonly status: 'success' | 'error';
  readonly content: string;
  readonly artifact: unknown;
}

/** What the agent run produced. */
export interface LangChainAgentReport {
  /** Every tool message in the model's last prompt, in order. */
  readonly seen: SeenToolMessage[];
  /** The model's final answer. */
  readonly text: string;
}

/** The member's rate limit the example board is started with (calls a minute). */
export const CALLS_PER_MINUTE = 4;

function call(id: string, name: string, args: Record<string, unknown>) {
  return { id, name, args, type: 'tool_call' as const };
}

/** Runs the scripted agent against the board at `url` with the member's `token`. */
export async function runLangChainAgent(board: {
  url: string;
  token: string;
}): Promise<LangChainAgentReport> {
  const client = createRecourseClient({ target: { url: board.url, token: board.token }, name: 'board' });
  try {
    const tools = await createLangChainTools(client, {
      tools: ['tasks_create', 'whoami'],
      call: { timeoutMs: 10_000 },
    });
    const model = new ScriptedChatModel([
      new AIMessage({ content: '', tool_calls: [call('c1', 'tasks_create', { title: 42 })] }),
      new AIMessage({
        content: '',
        tool_calls: [call('c2', 'tasks_create', { title: 'Write the release notes' })],
      }),
      new AIMessage({
        content: '',
        tool_calls: [1, 2, 3, 4].map((n) => call(`w${String(n)}`, 'whoami', {})),
      }),
      new AIMessage('The task is filed; I am rate-limited for now and will wait before calling again.'),
    ]);
    const bound = model.bindTools();
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('agent', async (state) => ({ messages: [await bound.invoke(state.messages)] }))
      .addNode('tools', new ToolNode(tools))
      .addEdge(START, 'agent')
      .addConditionalEdges('agent', toolsCondition)
      .addEdge('tools', 'agent')
      .compile();
    const final = await graph.invoke({
      messages: [new HumanMessage('File the release-notes task, then check who I am.')],
    });
    const last = model.prompts.at(-1) ?? [];
    const seen = last
      .filter((message): message is ToolMessage => ToolMessage.isInstance(message))
      .map((message) => ({
        name: message.name ?? '',
        status: message.status ?? 'success',
        content: typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
        artifact: message.artifact as unknown,
      }));
    const answer = final.messages.at(-1)?.content;
    return { seen, text: typeof answer === 'string' ? answer : '' };
  } finally {
    await client.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const board = await startExampleBoard({ callsPerMinute: CALLS_PER_MINUTE });
  try {
    const report = await runLangChainAgent(board);
    for (const seen of report.seen) console.log(`${seen.name} → ${seen.status}: ${seen.content}`);
    console.log(`model: ${report.text}`);
  } finally {
    await board.close();
  }
}
