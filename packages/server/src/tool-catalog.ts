/**
 * The tools a server offers, prepared once: strict validators, JSON Schemas and the `tools/list` entries.
 *
 * @packageDocumentation
 */
import * as z from 'zod';
import type {
  CallToolResult,
  InputRequiredResult,
  ServerContext,
  Tool,
  ToolAnnotations,
} from '@modelcontextprotocol/server';
import { IDEMPOTENCY_META_KEY, type IdempotencyMeta } from '@recourse/core';
import type { ToolDefinition } from './contract.ts';
import type { TaskWork } from './tasks/task-runtime.ts';

/** The argument name under which idempotent tools take their idempotency key. */
export const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';

/**
 * A tool served beside the pipeline tools but outside the pipeline: it gets the raw SDK context (logging,
 * sampling, elicitation, progress) and answers a `CallToolResult` itself, or on 2026-07-28 an input-required
 * result (`inputRequired(...)`). Used for conformance fixtures.
 * A raw handler's exception still becomes a redacted `internal` failure, never a protocol error.
 */
export interface RawTool {
  readonly name: string;
  readonly title?: string;
  readonly description: string;
  /** A JSON Schema object, advertised as is and not enforced. */
  readonly inputSchema: Tool['inputSchema'];
  readonly annotations?: ToolAnnotations;
  readonly _meta?: Record<string, unknown>;
  /** Whether and how the tool runs as a task for a client that declared the tasks extension. */
  readonly task?: RawTaskSupport;
  handler(
    args: Record<string, unknown>,
    ctx: ServerContext,
  ): CallToolResult | InputRequiredResult | Promise<CallToolResult | InputRequiredResult>;
}

/**
 * Task support of a {@link RawTool}. `start` runs at submission with the request's SDK context: it may answer an
 * input-required result (multi-round trip before the task exists), or return the work to run as the task. The
 * work's result settles the task `completed`; a thrown SDK `ProtocolError` settles it `failed` with that error.
 */
export interface RawTaskSupport {
  readonly support: 'optional' | 'required';
  start(
    args: Record<string, unknown>,
    ctx: ServerContext,
  ): InputRequiredResult | RawTaskRun | Promise<InputRequiredResult | RawTaskRun>;
}

/** The work of a raw tool's task. */
export type RawTaskRun = (work: TaskWork) => Promise<CallToolResult>;

/** The `execution` entry that tells `tools/list` readers a tool may run as a task. */
function executionOf(support: 'optional' | 'required' | undefined): Pick<Tool, 'execution'> {
  return support === undefined ? {} : { execution: { taskSupport: support } };
}

/** A pipeline tool with everything prepared for calls. */
export interface CatalogTool {
  readonly definition: ToolDefinition;
  /** Strict validator of the call's arguments, including the idempotency key when the tool takes one. */
  readonly validator: z.ZodObject;
  readonly listing: Tool;
  readonly deadlineMs: number;
  readonly cost: number;
}

/** Every tool of a server by name, and the `tools/list` answer in name order. */
export interface ToolCatalog {
  readonly listing: readonly Tool[];
  pipelineTool(name: string): CatalogTool | undefined;
  rawTool(name: string): RawTool | undefined;
}

/** Options of {@link buildToolCatalog}. */
export interface ToolCatalogOptions {
  readonly defaultDeadlineMs: number;
  readonly idempotencyTtlMs: number;
}

/** Error code thrown by {@link buildToolCatalog} when two tools share a name. */
export const DUPLICATE_TOOL = 'DUPLICATE_TOOL';

function strictValidator(definition: ToolDefinition, ttlMs: number): z.ZodObject {
  let schema: z.ZodObject = definition.input;
  if (schema.def.catchall === undefined) schema = schema.strict();
  if (definition.idempotent !== true) return schema;
  const hours = Math.round((ttlMs / 3_600_000) * 10) / 10;
  return schema.safeExtend({
    [IDEMPOTENCY_ARGUMENT]: z
      .string()
      .min(8)
      .max(200)
      .optional()
      .describe(
        `Optional key of 8 to 200 characters that makes this call safe to repeat: a repeat with the same key and ` +
          `arguments within ${String(hours)} h returns the first result without doing the work again.`,
      ),
  });
}

function listingOf(definition: ToolDefinition, validator: z.ZodObject, ttlMs: number): Tool {
  const inputSchema = z.toJSONSchema(validator, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as Tool['inputSchema'];
  const title = definition.title ?? definition.annotations.title;
  return {
    name: definition.name,
    ...(title === undefined ? {} : { title }),
    description: definition.description,
    inputSchema,
    annotations: { ...definition.annotations },
    ...executionOf(definition.task?.support),
    ...(definition.idempotent === true
      ? {
          _meta: {
            [IDEMPOTENCY_META_KEY]: { argument: IDEMPOTENCY_ARGUMENT, ttlMs } satisfies IdempotencyMeta,
          },
        }
      : {}),
  };
}

function rawListingOf(raw: RawTool): Tool {
  return {
    name: raw.name,
    ...(raw.title === undefined ? {} : { title: raw.title }),
    description: raw.description,
    inputSchema: raw.inputSchema,
    ...(raw.annotations === undefined ? {} : { annotations: raw.annotations }),
    ...(raw._meta === undefined ? {} : { _meta: raw._meta }),
    ...executionOf(raw.task?.support),
  };
}

/**
 * Prepares the tools once per server: validators and JSON Schemas (draft 2020-12, `additionalProperties:false`)
 * are built here, never per call. Throws an error with code `DUPLICATE_TOOL` when two tools share a name.
 */
export function buildToolCatalog(
  tools: readonly ToolDefinition[],
  rawTools: readonly RawTool[],
  options: ToolCatalogOptions,
): ToolCatalog {
  const pipeline = new Map<string, CatalogTool>();
  const raw = new Map<string, RawTool>();
  const claim = (name: string): void => {
    if (pipeline.has(name) || raw.has(name)) {
      throw Object.assign(
        new Error(`Two tools are named ${name}; tool names must be unique on one server.`),
        {
          name: 'ToolCatalogError',
          code: DUPLICATE_TOOL,
        },
      );
    }
  };
  for (const definition of tools) {
    claim(definition.name);
    const validator = strictValidator(definition, options.idempotencyTtlMs);
    pipeline.set(definition.name, {
      definition,
      validator,
      listing: listingOf(definition, validator, options.idempotencyTtlMs),
      deadlineMs: definition.deadlineMs ?? options.defaultDeadlineMs,
      cost: definition.cost ?? 1,
    });
  }
  for (const tool of rawTools) {
    claim(tool.name);
    raw.set(tool.name, tool);
  }
  const listing = [
    ...[...pipeline.values()].map((t) => t.listing),
    ...[...raw.values()].map(rawListingOf),
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    listing,
    pipelineTool: (name) => pipeline.get(name),
    rawTool: (name) => raw.get(name),
  };
}
