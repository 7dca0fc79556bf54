/**
 * `@recourse/client/langchain`: a server's tools as LangChain tools whose calls go through `@recourse/client`,
 * with its deadlines, cancellation, safe retries, breakers and fallbacks. Needs the optional peer dependency
 * `@langchain/core`; works with LangGraph's `ToolNode` and with any chat model's `bindTools`.
 *
 * @packageDocumentation
 */
import type { CallbackManagerForToolRun } from '@langchain/core/callbacks/manager';
import { ToolMessage } from '@langchain/core/messages';
import { StructuredTool } from '@langchain/core/tools';
import type { ToolRunnableConfig } from '@langchain/core/tools';
import type { Tool as McpTool } from '@modelcontextprotocol/client';
import { isRecourseCallError } from '../errors.ts';
import type { RecourseClient } from '../recourse-client.ts';
import {
  AgentToolError,
  callOptions,
  describeTool,
  failureSummary,
  resultForModel,
  toolsToOffer,
} from '../agent-tools/agent-tools.ts';
import type { AgentToolsOptions } from '../agent-tools/agent-tools.ts';
import { serverValidatedSchema } from './server-validated-schema.ts';
import type { ServerValidatedSchema } from './server-validated-schema.ts';

export { AgentToolError, failureForModel } from '../agent-tools/agent-tools.ts';
export type { ServerValidatedSchema } from './server-validated-schema.ts';
export type { AgentToolFailure, AgentToolsOptions } from '../agent-tools/agent-tools.ts';

/**
 * A LangChain tool that calls one of the server's tools through a {@link RecourseClient}.
 *
 * - Schema: the model is shown the server's input schema, and LangChain does not check the arguments against
 *   it: the server validates them, so the model reads the server's sentence for bad arguments.
 * - Called with a tool call (as `ToolNode` and agents do), it always answers with a `ToolMessage`: on success
 *   `status: "success"`, the result's text as content and the whole `CallToolResult` (with `_meta`) as
 *   `artifact`; on failure `status: "error"`, `[category] ` and the failure's full sentence as content, and an
 *   {@link AgentToolFailure} as `artifact`. `ToolNode` passes that message on unchanged, so nothing (such as
 *   its "Please fix your mistakes.") is appended to the server's sentence.
 * - Called with plain arguments, it returns the result's text or throws {@link AgentToolError}.
 * - The run's `signal` (e.g. `graph.invoke(input, { signal })`) cancels the call on the wire.
 */
export class RecourseLangChainTool extends StructuredTool<
  ServerValidatedSchema,
  Record<string, unknown>,
  Record<string, unknown>,
  string | ToolMessage
> {
  name: string;
  description: string;
  schema: ServerValidatedSchema;
  readonly #client: RecourseClient;
  readonly #options: AgentToolsOptions;

  constructor(client: RecourseClient, tool: McpTool, options: AgentToolsOptions = {}) {
    super();
    this.name = tool.name;
    this.description = describeTool(tool);
    this.schema = serverValidatedSchema(tool.inputSchema, this.description);
    this.#client = client;
    this.#options = options;
  }

  protected async _call(
    arg: Record<string, unknown>,
    _runManager?: CallbackManagerForToolRun,
    config?: ToolRunnableConfig,
  ): Promise<string | ToolMessage> {
    const args = typeof arg === 'object' && arg !== null ? arg : {};
    const toolCallId = config?.toolCall?.id;
    try {
      const { result } = await this.#client.callTool(
        this.name,
        args,
        callOptions(this.#options, config?.signal),
      );
      const content = resultForModel(this.name, result);
      if (toolCallId === undefined) return content;
      return new ToolMessage({
        status: 'success',
        content,
        artifact: result,
        name: this.name,
        tool_call_id: toolCallId,
      });
    } catch (error) {
      if (!isRecourseCallError(error)) throw error;
      if (toolCallId === undefined) throw new AgentToolError(error);
      const summary = failureSummary(error);
      return new ToolMessage({
        status: 'error',
        content: summary.text,
        artifact: summary,
        name: this.name,
        tool_call_id: toolCallId,
      });
    }
  }
}

/**
 * The server's tools (all, or `options.tools`) as LangChain tools, for `model.bindTools(tools)` and
 * `new ToolNode(tools)`. Lists the tools once through the client; rejects like `client.listTools()` when the
 * server cannot be reached.
 */
export async function createLangChainTools(
  client: RecourseClient,
  options: AgentToolsOptions = {},
): Promise<RecourseLangChainTool[]> {
  return (await toolsToOffer(client, options)).map(
    (tool) => new RecourseLangChainTool(client, tool, options),
  );
}
