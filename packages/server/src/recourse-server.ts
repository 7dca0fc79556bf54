/**
 * `createRecourseServer`: tools declared once, served through the pipeline by a fresh SDK server per request.
 *
 * @packageDocumentation
 */
import {
  isInputRequiredResult,
  McpServer,
  type ServerOptions,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import { REDACTION_RULES, SECRET_REDACTION_RULES, type RedactionRule } from '@recourse/core';
import { pino } from 'pino';
import type { Logger } from './logger.ts';
import type {
  CallLogSink,
  CallObserver,
  IdempotencyStore,
  PermissionPolicy,
  Principal,
  PrincipalRecheck,
  RecourseServer,
  SuccessRedaction,
  ToolDefinition,
  TransportLeg,
} from './contract.ts';
import { buildToolCatalog, type RawTool, type ToolCatalog } from './tool-catalog.ts';
import { createRateLimits, type RateLimitOptions } from './rate-limits.ts';
import { createMemoryIdempotencyStore } from './idempotency-store.memory.ts';
import { createInflightRegistry, type InflightRegistry } from './inflight-registry.ts';
import { createCallRecorder } from './call-recorder.ts';
import type { PipelineEnv } from './pipeline/pipeline.ts';
import { clarifyParamErrors } from './request-param-errors.ts';
import type { TaskStore } from './tasks/task-store.ts';
import { createMemoryTaskStore } from './tasks/task-store.memory.ts';
import { createTaskRuntime, type TaskRuntime } from './tasks/task-runtime.ts';
import { registerTaskMethods } from './tasks/task-methods.ts';
import { resolveGuidance, type RefusalGuidance } from './pipeline/refusal-guidance.ts';
import { dispatchCall, type Dispatch } from './dispatch-call.ts';

/** Options of {@link createRecourseServer}. */
export interface RecourseServerOptions {
  /** Server name reported to clients. */
  readonly name: string;
  readonly version: string;
  /** Instructions for the model, sent at initialization / discovery. */
  readonly instructions?: string;
  /** The pipeline tools. Names must be unique (also against `rawTools`). */
  readonly tools: readonly ToolDefinition[];
  /**
   * Which roles hold which permissions (default none: no permission step; a server without roles, such as a
   * local stdio tool server, needs neither this nor authentication). With a policy, a tool that names a
   * `permission` is refused to a caller whose role does not hold it, and to a call without an identity.
   */
  readonly permissions?: PermissionPolicy;
  /**
   * How refusals name the caller and what they tell it to do next: whom to ask for a role, a credential or a
   * higher limit (default: neutral sentences that point to whoever administers the server).
   */
  readonly guidance?: RefusalGuidance;
  /**
   * Where the pipeline logs (default: pino to stderr): any object with pino's level methods (`child`, `error`,
   * `warn`, `info`, `debug`). Internal faults are logged in full here.
   */
  readonly logger?: Logger;
  /** Deadline of a tool without its own `deadlineMs` (default 10 000 ms). */
  readonly defaultDeadlineMs?: number;
  /** Per-caller rate limits (default 120 calls a minute, memory store). */
  readonly rateLimit?: RateLimitOptions;
  /** Store and lifetime of idempotency records (default: a memory store, 24 h). */
  readonly idempotency?: { readonly store: IdempotencyStore; readonly ttlMs?: number };
  /** Receives one entry per tool call (never arguments); a call is answered once its entry is stored. */
  readonly callLog?: CallLogSink;
  /** Told when each tool call starts and finishes (e.g. Prometheus metrics); default none. */
  readonly observer?: CallObserver;
  /**
   * How a successful result's text is redacted when its tool does not say (`ToolDefinition.successRedaction`):
   * `'secrets'` (default) removes credentials only and keeps the tool's own paths, hosts and queries; `'all'`
   * applies every rule failure texts get; `'none'` passes texts through. Failure texts always get every rule.
   * The redactor costs roughly 50 µs per kilobyte of text.
   */
  readonly successRedaction?: SuccessRedaction;
  /**
   * Redaction rules of the server's own (e.g. for its token format), applied after the built-in ones to
   * failure texts and to success texts that are redacted at all.
   */
  readonly redactionRules?: readonly RedactionRule[];
  /** Tools served beside the pipeline tools without the pipeline (conformance fixtures). */
  readonly rawTools?: readonly RawTool[];
  /**
   * Registers prompts and resources on each fresh `McpServer` with the normal SDK API. Must not call
   * `registerTool` (tools are served by the pipeline; use `tools` or `rawTools`).
   */
  readonly extend?: (server: McpServer) => void;
  /**
   * Verifies the `requestState` a client echoes on a 2026-07-28 multi-round-trip retry before any handler
   * runs (the SDK's `ServerOptions.requestState`, e.g. `createRequestStateCodec(...).verify`); a failure is
   * JSON-RPC -32602. Default none: raw tools that mint state check it themselves.
   */
  readonly requestState?: ServerOptions['requestState'];
  /**
   * Checks the caller again on every pipeline tool call of the `stdio` leg, where the credential was verified
   * once at start-up: a refusal answers `permission` / `CREDENTIAL_REFUSED` (nothing runs, nothing changes), a
   * returned principal (e.g. with a changed role) is used for that call. Not called on HTTP legs, whose host
   * verifies the token on every request, nor for raw tools. Default none: the connection's principal holds.
   */
  readonly recheckPrincipal?: PrincipalRecheck;
  /**
   * The tasks extension (`io.modelcontextprotocol/tasks`): where tasks are kept (default a memory store, lost on
   * restart; use a shared durable store when several instances serve one deployment), how long they are kept
   * (`ttlMs`, default 1 h), the poll interval suggested to clients (default 1000 ms) and the lease this
   * instance holds over its running tasks (default 15 s: a task whose instance died is failed within it).
   * The extension is served when this is set or any tool declares `task` support.
   */
  readonly tasks?: {
    readonly store?: TaskStore;
    readonly ttlMs?: number;
    readonly pollIntervalMs?: number;
    readonly leaseMs?: number;
    readonly instanceId?: string;
  };
}

/** A Recourse server: the contract's {@link RecourseServer} plus the prepared `tools/list` entries. */
export interface RecourseServerInstance extends RecourseServer {
  readonly inflight: InflightRegistry;
  /** The `tools/list` entries, in name order. */
  readonly listing: ToolCatalog['listing'];
  /** The tasks-extension runtime, when the extension is served. */
  readonly tasks?: TaskRuntime;
  /** Stops the task heartbeat and fails the tasks still running in this process. */
  close(): Promise<void>;
}

/** 24 hours, the default lifetime of an idempotency record. */
export const DEFAULT_IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** 10 seconds, the default deadline of a tool call. */
export const DEFAULT_DEADLINE_MS = 10_000;

/**
 * Creates a Recourse server: validators and JSON Schemas are prepared once here; `createMcpServer` then builds a
 * cheap, fresh `McpServer` per HTTP request or stdio connection whose `tools/list` and `tools/call` are served by
 * the pipeline. An unknown tool is JSON-RPC -32602 with `data.tool`; everything else is a tool result.
 * Throws an error with code `DUPLICATE_TOOL` or `INVALID_RATE_LIMIT` for a bad configuration.
 */
export function createRecourseServer(options: RecourseServerOptions): RecourseServerInstance {
  const logger: Logger = options.logger ?? pino({ name: options.name }, pino.destination(2));
  const idempotencyTtlMs = options.idempotency?.ttlMs ?? DEFAULT_IDEMPOTENCY_TTL_MS;
  const catalog = buildToolCatalog(options.tools, options.rawTools ?? [], {
    defaultDeadlineMs: options.defaultDeadlineMs ?? DEFAULT_DEADLINE_MS,
    idempotencyTtlMs,
  });
  const inflight = createInflightRegistry(logger);
  const extraRules = options.redactionRules ?? [];
  const env: PipelineEnv = {
    ...(options.permissions === undefined ? {} : { permissions: options.permissions }),
    guidance: resolveGuidance(options.guidance),
    rateLimits: createRateLimits(options.rateLimit),
    idempotency: {
      store: options.idempotency?.store ?? createMemoryIdempotencyStore(),
      ttlMs: idempotencyTtlMs,
    },
    inflight,
    logger,
    successRedaction: options.successRedaction ?? 'secrets',
    redactionRules: [...REDACTION_RULES, ...extraRules],
    secretRules: [...SECRET_REDACTION_RULES, ...extraRules],
    ...(options.recheckPrincipal === undefined ? {} : { recheckPrincipal: options.recheckPrincipal }),
  };
  const taskCapable =
    options.tasks !== undefined ||
    options.tools.some((tool) => tool.task !== undefined) ||
    (options.rawTools ?? []).some((tool) => tool.task !== undefined);
  const tasks = taskCapable
    ? createTaskRuntime({
        store: options.tasks?.store ?? createMemoryTaskStore(),
        logger,
        ...(options.tasks?.ttlMs === undefined ? {} : { ttlMs: options.tasks.ttlMs }),
        ...(options.tasks?.pollIntervalMs === undefined
          ? {}
          : { pollIntervalMs: options.tasks.pollIntervalMs }),
        ...(options.tasks?.leaseMs === undefined ? {} : { leaseMs: options.tasks.leaseMs }),
        ...(options.tasks?.instanceId === undefined ? {} : { instanceId: options.tasks.instanceId }),
      })
    : undefined;
  const dispatch: Dispatch = {
    catalog,
    env,
    record: createCallRecorder(options.callLog, logger),
    ...(tasks === undefined ? {} : { tasks }),
    observer: options.observer,
  };

  const inputSchemas = new Map<string, Record<string, unknown>>(
    catalog.listing.map((tool) => [tool.name, tool.inputSchema as Record<string, unknown>]),
  );

  const createMcpServer = (ctx: { principal: Principal | undefined; transport: TransportLeg }): McpServer => {
    const server = new McpServer(
      { name: options.name, version: options.version },
      {
        capabilities: { tools: {} },
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
        ...(options.requestState === undefined ? {} : { requestState: options.requestState }),
      },
    );
    options.extend?.(server);
    // The SDK checks 2026-07-28 `Mcp-Param-*` headers against `x-mcp-header` declarations before dispatch, reading
    // schemas through this hook, which only knows tools added with `registerTool`; ours are in the catalog.
    server.toolInputSchemaJson = (name: string) => inputSchemas.get(name);
    const low = server.server;
    low.registerCapabilities({ tools: {} });
    low.setRequestHandler('tools/list', () => ({ tools: [...catalog.listing] }));
    low.setRequestHandler('tools/call', async (request, sdk) => {
      const result = await dispatchCall(
        dispatch,
        request.params.name,
        request.params.arguments,
        ctx.principal,
        ctx.transport,
        sdk,
      );
      // An input-required result (2026-07-28 multi-round trip) and a task are not tool results: passed on as is.
      if (isInputRequiredResult(result) || 'taskId' in result) return result as CallToolResult;
      return low.projectCallToolResult(result, undefined);
    });
    if (tasks !== undefined) {
      registerTaskMethods(server, tasks, async () => {
        if (
          ctx.principal === undefined ||
          ctx.transport !== 'stdio' ||
          options.recheckPrincipal === undefined
        )
          return ctx.principal;
        const answer = await options.recheckPrincipal(ctx.principal);
        return 'refused' in answer ? undefined : answer;
      });
    }
    // Last, so that every handler (the SDK's own, ours, the extension's) answers a client's malformed params
    // with -32602 and one sentence.
    clarifyParamErrors(low);
    return server;
  };

  return {
    createMcpServer,
    inflight,
    tools: options.tools,
    listing: catalog.listing,
    ...(tasks === undefined ? {} : { tasks }),
    close: async () => {
      await tasks?.close();
    },
  };
}
