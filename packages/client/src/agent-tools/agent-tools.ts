/**
 * What the agent-framework adapters (`@recourse/client/ai-sdk`, `@recourse/client/langchain`) share: which of the
 * server's tools to offer, how one call goes through the client, and the text a model reads for a result or a
 * failure. A failure's text is the sentence the server (or this client) wrote, marked with its category, so the
 * model reads what failed, what to do next, whether retrying helps and whether anything changed.
 *
 * @packageDocumentation
 */
import type { Tool } from '@modelcontextprotocol/client';
import { resultText } from '@recourse/core';
import type { FailureData } from '@recourse/core';
import type { AttemptRecord } from '../attempt-log.ts';
import type { CallErrorCode, CallFailureKind, LocalFailureReason, RecourseCallError } from '../errors.ts';
import type { CallOptions } from '../client-options.ts';
import type { RecourseClient } from '../recourse-client.ts';

/** Options of the adapters' tool factories. */
export interface AgentToolsOptions {
  /** Offer only these tools of the server (default: every tool `tools/list` returns). */
  readonly tools?: readonly string[];
  /** Per-call settings for every call the model makes (default: the client's). */
  readonly call?: Pick<CallOptions, 'timeoutMs' | 'maxTimeoutMs' | 'retry'>;
}

/** The failure behind a tool failure, in a form that can be stored with a conversation (no class instances). */
export interface AgentToolFailure {
  readonly kind: CallFailureKind;
  readonly code: CallErrorCode;
  /** `[category] sentence`: what the model reads. */
  readonly text: string;
  readonly server: string;
  readonly tool: string;
  readonly retryable: boolean;
  /** The server's failure data (`_meta["dev.recourse/failure"]`), for tool failures that carried it. */
  readonly failure?: FailureData;
  /** For local failures: which one, and whether the request may have had an effect on the server. */
  readonly reason?: LocalFailureReason;
  readonly mayHaveReachedServer?: boolean;
  readonly attempts: readonly AttemptRecord[];
}

/**
 * Thrown by an adapter's tool when a call fails and the framework expects an exception: its `message` is the
 * text the model should read ({@link failureForModel}), `failure` the client's typed error.
 */
export class AgentToolError extends Error {
  override readonly name = 'AgentToolError';
  /** The failure as the client reported it; narrow it on `kind` and `reason`. */
  readonly failure: RecourseCallError;

  constructor(failure: RecourseCallError) {
    super(failureForModel(failure), { cause: failure });
    this.failure = failure;
  }
}

/** The label a failure's text starts with: the server's category, or what this client saw. */
function label(error: RecourseCallError): string {
  switch (error.kind) {
    case 'tool':
      return error.category;
    case 'protocol':
      if (error.unknownTool) return 'unknown_tool';
      if (error.notFound) return 'not_found';
      return `protocol_error ${String(error.rpcCode)}`;
    case 'local':
      return error.reason;
  }
}

/**
 * The text a model reads for a failed call: `[category] ` and the full sentence, e.g. `[not_found] No task T-9
 * exists on the board. … Nothing was changed. Retrying unchanged will not help.` Nothing is added after the
 * sentence, so no advice contradicts it.
 */
export function failureForModel(error: RecourseCallError): string {
  const sentence = error.message.trim();
  return `[${label(error)}] ${sentence === '' ? `The call of ${error.tool} failed without a message.` : sentence}`;
}

/** A plain summary of a failure, kept beside the conversation (e.g. a LangChain `ToolMessage` artifact). */
export function failureSummary(error: RecourseCallError): AgentToolFailure {
  return {
    kind: error.kind,
    code: error.code,
    text: failureForModel(error),
    server: error.server,
    tool: error.tool,
    retryable: error.retryable,
    ...(error.kind === 'tool' && error.failure ? { failure: error.failure } : {}),
    ...(error.kind === 'local'
      ? { reason: error.reason, mayHaveReachedServer: error.mayHaveReachedServer }
      : {}),
    attempts: error.attempts,
  };
}

/**
 * The text a model reads for a successful call: the result's text parts; when it has none, its structured
 * content as JSON; else a sentence saying the tool answered without content.
 */
export function resultForModel(tool: string, result: unknown): string {
  const text = resultText(result);
  if (text !== '') return text;
  const structured =
    typeof result === 'object' && result !== null
      ? (result as { structuredContent?: unknown }).structuredContent
      : undefined;
  if (structured !== undefined) return JSON.stringify(structured);
  return `${tool} succeeded and returned no content.`;
}

/** The server's tools to offer: all of them, or the named ones (an unknown name is an error naming the tools). */
export async function toolsToOffer(
  client: RecourseClient,
  options: AgentToolsOptions,
): Promise<readonly Tool[]> {
  const listed = await client.listTools();
  if (options.tools === undefined) return listed;
  const wanted = new Set(options.tools);
  const missing = [...wanted].filter((name) => !listed.some((tool) => tool.name === name));
  if (missing.length > 0) {
    throw new Error(
      `${client.name} has no tool ${missing.join(', ')}; it has ${listed.map((tool) => tool.name).join(', ') || 'no tools'}. Pass names from that list in options.tools, or leave it out to offer every tool.`,
    );
  }
  return listed.filter((tool) => wanted.has(tool.name));
}

/** The tool's description for the model: its description, else its title, else its name. */
export function describeTool(tool: Tool): string {
  return tool.description ?? tool.title ?? tool.name;
}

/** One call the model asked for, through the client's whole stack, aborted by the framework's signal. */
export function callOptions(options: AgentToolsOptions, signal: AbortSignal | undefined): CallOptions {
  return { ...options.call, ...(signal ? { signal } : {}) };
}
