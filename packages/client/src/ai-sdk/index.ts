/**
 * `@recourse/client/ai-sdk`: a server's tools as Vercel AI SDK (v6) tools whose calls go through
 * `@recourse/client`, with its deadlines, cancellation, safe retries, breakers and fallbacks. Needs the optional
 * peer dependency `ai`.
 *
 * @packageDocumentation
 */
import { dynamicTool, jsonSchema } from 'ai';
import type { JSONSchema7, Tool, ToolSet } from 'ai';
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import { isRecourseCallError } from '../errors.ts';
import type { RecourseClient } from '../recourse-client.ts';
import {
  AgentToolError,
  callOptions,
  describeTool,
  resultForModel,
  toolsToOffer,
} from '../agent-tools/agent-tools.ts';
import type { AgentToolsOptions } from '../agent-tools/agent-tools.ts';

export { AgentToolError, failureForModel } from '../agent-tools/agent-tools.ts';
export type { AgentToolsOptions } from '../agent-tools/agent-tools.ts';

/**
 * One AI SDK tool for one of the server's tools. The model sees the server's input schema; the AI SDK does not
 * validate the input against it, so the server's own validation sentence is what the model reads for bad
 * arguments. A failed call throws {@link AgentToolError}, which the AI SDK hands to the model as an error tool
 * result (`error-text`) whose text is `[category] ` and the full sentence of the failure.
 */
export function aiSdkTool(client: RecourseClient, tool: McpTool, options: AgentToolsOptions = {}): Tool {
  return dynamicTool({
    description: describeTool(tool),
    inputSchema: jsonSchema(tool.inputSchema as JSONSchema7),
    execute: async (input, { abortSignal }) => {
      const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
      try {
        return (await client.callTool(tool.name, args, callOptions(options, abortSignal))).result;
      } catch (error) {
        if (isRecourseCallError(error)) throw new AgentToolError(error);
        throw error;
      }
    },
    // `output` is what `execute` returned: the call's CallToolResult.
    toModelOutput: ({ output }) => ({
      type: 'text',
      value: resultForModel(tool.name, output),
    }),
  });
}

/**
 * The server's tools (all, or `options.tools`) as an AI SDK `ToolSet` for `generateText` / `streamText`. Lists
 * the tools once through the client; rejects like `client.listTools()` when the server cannot be reached.
 */
export async function createAiSdkTools(
  client: RecourseClient,
  options: AgentToolsOptions = {},
): Promise<ToolSet> {
  const tools: ToolSet = {};
  for (const tool of await toolsToOffer(client, options)) tools[tool.name] = aiSdkTool(client, tool, options);
  return tools;
}
