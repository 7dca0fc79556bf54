export { FAILURE_CATEGORIES, TOOL_FAILURE_CODE, ToolFailure, isToolFailure } from './failure.ts';
export type { FailureCategory, FailureData, PermissionDetail } from './failure.ts';
export {
  businessRule,
  conflict,
  internalFailure,
  invalidArgument,
  notFound,
  permissionDenied,
  rateLimited,
  transientFailure,
} from './failure-helpers.ts';
export type {
  FailureOptions,
  InternalFailureOptions,
  InvalidArgumentOptions,
  PermissionDeniedOptions,
  RateLimitedOptions,
  TransientFailureOptions,
} from './failure-helpers.ts';
export { formatWait, renderFailureText } from './failure-text.ts';
export { DEFAULT_VALUE_LENGTH, redactText, redactValue } from './redact.ts';
export { REDACTION_RULES, SECRET_REDACTION_RULES, isSecretName } from './redaction-rules.ts';
export type { RedactionRule } from './redaction-rules.ts';
export { FAILURE_META_KEY, decodeFailure, encodeFailure, resultText } from './wire-codec.ts';
export type { EncodedFailure, FailureMeta } from './wire-codec.ts';
export { guessCategory } from './guess-category.ts';
export { IDEMPOTENCY_META_KEY, idempotencyArgumentOf } from './idempotency-meta.ts';
export type { IdempotencyMeta } from './idempotency-meta.ts';
export { isCorrelationId, newCorrelationId } from './correlation-id.ts';
export { MAX_LISTED_ISSUES, failureFromZodError } from './validation-failure.ts';
export type { ZodFailureOptions } from './validation-failure.ts';
export { describeIssue, formatPath } from './zod-issue-text.ts';
export type { IssueText } from './zod-issue-text.ts';
export { acceptedKeys } from './schema-keys.ts';
export {
  LEGACY_ERROR_CODES,
  PROTOCOL_ERROR_CODES,
  RECOURSE_ERROR_CODES,
  describeErrorCode,
  isReservedCode,
  recourseCodeForStatus,
} from './error-codes.ts';
export type { ErrorCodeDescription, ErrorCodeOrigin } from './error-codes.ts';
