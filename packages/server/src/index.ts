export { ANONYMOUS_PRINCIPAL, defineTool } from './contract.ts';
export type { Logger, LogMethod } from './logger.ts';
export { defaultCallerName, resolveGuidance } from './pipeline/refusal-guidance.ts';
export type { RefusalGuidance, ResolvedGuidance } from './pipeline/refusal-guidance.ts';
export type {
  PermissionPolicy,
  Principal,
  PrincipalRecheck,
  TaskRunContext,
  TaskSupport,
  SuccessRedaction,
  TokenRefusal,
  TokenVerifier,
  ToolContext,
  ToolDefinition,
  ToolHints,
  ToolSuccess,
} from './contract.ts';
export type {
  CallCanceller,
  CallLogEntry,
  CallObserver,
  ObservedCall,
  CallLogSink,
  IdempotencyClaim,
  IdempotencyStore,
  McpServerFactory,
  RecourseServer,
  TransportLeg,
} from './contract.ts';
export { createRecourseServer, DEFAULT_DEADLINE_MS, DEFAULT_IDEMPOTENCY_TTL_MS } from './recourse-server.ts';
export type { RecourseServerInstance, RecourseServerOptions } from './recourse-server.ts';
export { buildToolCatalog, DUPLICATE_TOOL, IDEMPOTENCY_ARGUMENT } from './tool-catalog.ts';
/** Re-exported from `@recourse/core`, where the idempotency `_meta` entry is defined once. */
export { IDEMPOTENCY_META_KEY } from '@recourse/core';
export type {
  CatalogTool,
  RawTaskRun,
  RawTaskSupport,
  RawTool,
  ToolCatalog,
  ToolCatalogOptions,
} from './tool-catalog.ts';
export { isTerminal, TERMINAL_STATUSES } from './tasks/task-store.ts';
export type { StoredTask, TaskError, TaskPatch, TaskStatus, TaskStore } from './tasks/task-store.ts';
export { createMemoryTaskStore } from './tasks/task-store.memory.ts';
export {
  createTaskRuntime,
  DEFAULT_TASK_LEASE_MS,
  DEFAULT_TASK_POLL_INTERVAL_MS,
  DEFAULT_TASK_TTL_MS,
  newTaskId,
} from './tasks/task-runtime.ts';
export type {
  TaskLaunch,
  TaskOutcome,
  TaskRuntime,
  TaskRuntimeOptions,
  TaskWork,
} from './tasks/task-runtime.ts';
export { MISSING_CLIENT_CAPABILITY } from './tasks/task-methods.ts';
export { DEFAULT_TASK_DEADLINE_MS, TASK_REF_KEY } from './tasks/task-submission.ts';
export { TASKS_EXTENSION_ID } from './tasks/tasks-extension.ts';
export { createRateLimits, INVALID_RATE_LIMIT } from './rate-limits.ts';
export type {
  RateLimitOptions,
  RateLimits,
  RateLimitStoreFactory,
  RateLimitStoreOptions,
  RateVerdict,
} from './rate-limits.ts';
export { claimOfRecord } from './idempotency-claim.ts';
export type { IdempotencyRecordView } from './idempotency-claim.ts';
export { createMemoryIdempotencyStore } from './idempotency-store.memory.ts';
export type { MemoryIdempotencyStore, MemoryIdempotencyStoreOptions } from './idempotency-store.memory.ts';
export { createMemoryCallLog } from './call-log.memory.ts';
export type { MemoryCallLog } from './call-log.memory.ts';
export { createInflightRegistry } from './inflight-registry.ts';
export type { Cancellable, InflightRegistry } from './inflight-registry.ts';
export { CallCancelledError, DeadlineExceededError, openCallScope } from './call-scope.ts';
export type { CallScope, CallScopeOptions } from './call-scope.ts';
export { hashArguments } from './argument-hash.ts';
export { CALL_META_KEY } from './pipeline/result-mapping.ts';
export { startHttpHost } from './http/http-host.ts';
export type { HostRoutes, HttpHost, HttpHostOptions } from './http/http-host.ts';
export { DEFAULT_FLOOD_LIMIT } from './http/flood-guard.ts';
export type { FloodLimit } from './http/flood-guard.ts';
export { DEFAULT_MAX_BODY_BYTES } from './http/request-body.ts';
export type { ProtectedResourceMetadata } from './http/protected-resource-metadata.ts';
export { startStdioHost } from './stdio/stdio-host.ts';
export type { StdioHost, StdioHostOptions } from './stdio/stdio-host.ts';
export { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from './http/legacy-sessions.ts';
export type { LegacySessionOptions } from './http/legacy-sessions.ts';
export { createMemoryEventStore, DEFAULT_EVENT_CAPACITY } from './http/memory-event-store.ts';
export { createServerMetrics, CALL_DURATION_BUCKETS } from './metrics/server-metrics.ts';
export type { ServerMetrics, ServerMetricsOptions } from './metrics/server-metrics.ts';
export { DRAIN_CANCEL_REASON } from './http/http-host.ts';
export type { DrainOptions, DrainReport } from './http/http-host.ts';
export { OPERATIONS_PATHS, READINESS_CHECK_TIMEOUT_MS } from './http/operations-routes.ts';
export type { MetricsEndpoint, ReadinessCheck } from './http/operations-routes.ts';
