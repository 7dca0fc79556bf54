/**
 * @recourse/client: a resilient MCP client with deadlines, cancellation, safe retries, breakers,
 * bulkheads, version renegotiation, fallbacks and an attempt log on every outcome.
 *
 * @packageDocumentation
 */
export { RecourseClient, createRecourseClient } from './recourse-client.ts';
export type {
  CallOptions,
  CallOutcome,
  CallSuccess,
  FallbackRoute,
  RecourseClientOptions,
} from './client-options.ts';
export {
  CALL_ERROR_CODES,
  ClientClosedError,
  LocalCallError,
  ProtocolCallError,
  RecourseCallError,
  ToolCallFailedError,
  isRecourseCallError,
} from './errors.ts';
export type { CallErrorCode, CallFailureKind, LocalCallFailure, LocalFailureReason } from './errors.ts';
export type { AttemptOutcome, AttemptRecord } from './attempt-log.ts';
export type { CallProgress } from './progress-routes.ts';
export { MODERN_PROTOCOL_VERSION, chooseVersion } from './connection.ts';
export { INPUT_HANDLER_FAILED, InputHandlerError, InvalidClientOptionsError } from './input-handlers.ts';
export type { InputHandlers, InputRequestContext } from './input-handlers.ts';
export type { ProtocolMode, ServerTarget } from './connection.ts';
export { isBreakerFault } from './breakers.ts';
export type { BreakerOptions, BreakerState } from './breakers.ts';
export type { GiveUpReason, RetryInfo, RetryOptions } from './retry-policy.ts';
export type { PolicyEventMap, PolicyEventName, PolicyListener } from './policy-events.ts';
export { IDEMPOTENCY_META_KEY } from '@recourse/core';
export type { ToolTraits } from './tool-catalog.ts';
export { parseRetryAfter } from './http-exchange.ts';
export {
  createOAuthClientProvider,
  fileOAuthStateStore,
  memoryOAuthStateStore,
  signIn,
  SignInError,
} from './oauth/index.ts';
export type {
  OAuthClientProviderOptions,
  OAuthState,
  OAuthStateStore,
  SignInOptions,
} from './oauth/index.ts';
export { TASK_POLL_ERROR_CODE, TaskPollError, pollTask } from './task-poller.ts';
export type { TaskPollFailure, TaskPollOptions, TaskSnapshot, TaskStatus } from './task-poller.ts';
export type { TaskCallOptions, TaskPolicy, TaskReference } from './tasks/task-calls.ts';
