export { FAILURE_CATEGORIES, TOOL_FAILURE_CODE, ToolFailure, isToolFailure } from './failure.ts';
export type { FailureCategory, FailureData, PermissionDetail } from './failure.ts';
