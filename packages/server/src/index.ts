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
export type {
  CallCanceller,
  CallLogEntry,
  CallLogSink,
  IdempotencyClaim,
  IdempotencyStore,
  McpServerFactory,
  RecourseServer,
  TransportLeg,
} from './contract.ts';
