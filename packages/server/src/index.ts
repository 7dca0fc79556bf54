export { defineTool } from './contract.ts';
export type {
  PermissionPolicy,
  Principal,
  TokenRefusal,
  TokenVerifier,
  ToolContext,
  ToolDefinition,
  ToolHints,
  ToolSuccess,
} from './contract.ts';
export type { CallLogEntry, CallLogSink, IdempotencyClaim, IdempotencyStore } from './contract.ts';
