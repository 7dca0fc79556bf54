/**
 * @recourse/board — Recourse Board: a task board for people and AI assistants, served over MCP.
 *
 * @packageDocumentation
 */
export {
  BOARD_INSTRUCTIONS,
  BOARD_NAME,
  BOARD_VERSION,
  createBoardServer,
  openBoardDatabase,
} from './board-server.ts';
export { assembleBoardServer } from './board-server.ts';
export type {
  BoardParts,
  BoardServer,
  BoardServerOptions,
  SqliteBoardServer,
  SqliteBoardServerOptions,
} from './board-server.ts';
export { createPgBoardServer } from './board-server.pg.ts';
export type { PgBoardServer, PgBoardServerOptions } from './board-server.pg.ts';
export { ensureOwner } from './bootstrap.ts';
export type { FirstOwner } from './bootstrap.ts';

export { boardPermissions, grantOf, isRole, PERMISSION_TABLE, PERMISSIONS, ROLES } from './domain/roles.ts';
export type { Grant, Permission, Role } from './domain/roles.ts';
export { isMemberKind, MEMBER_KINDS, memberKindOf, memberPrincipal } from './domain/member.ts';
export { BOARD_GUIDANCE } from './domain/board-guidance.ts';
export type { Member, MemberKind } from './domain/member.ts';
export { DUE_DATE_PATTERN, isCalendarDate, TASK_REF_PATTERN, TASK_STATUSES, taskRef } from './domain/task.ts';
export type { Comment, HistoryEntry, Task, TaskStatus } from './domain/task.ts';
export type { TokenRecord } from './domain/token.ts';
export {
  conditionUnmet,
  lastOwner,
  memberNotFound,
  taskNotFound,
  versionConflict,
} from './domain/board-failures.ts';

export type { BoardStore, BoardTx, TaskPatch, TaskQuery } from './store/board-store.ts';
export { createSqliteBoardStore } from './store/board-store.sqlite.ts';
export { createPgBoardStore } from './store/board-store.pg.ts';
export { migratePg, PG_MIGRATIONS } from './store/migrations.pg.ts';
export { migrate, MIGRATIONS } from './store/migrations.sqlite.ts';
export type { Migration } from './store/migrations.sqlite.ts';
export { DATABASE_FILE, openDatabase } from './store/open-database.sqlite.ts';

export { createBoardServices } from './services/board-services.ts';
export type { BoardServices } from './services/board-services.ts';
export { createTaskService } from './services/task-service.ts';
export type { NewTask, TaskChange, TaskDetail, TaskEdit, TaskService } from './services/task-service.ts';
export { createMemberService, UnknownMemberError } from './services/member-service.ts';
export type { MemberService } from './services/member-service.ts';
export {
  AmbiguousTokenError,
  createTokenService,
  hashToken,
  TOKEN_PREFIX,
  TOKEN_PREFIX_LENGTH,
  UnknownTokenError,
} from './services/token-service.ts';
export type { TokenService } from './services/token-service.ts';
export { localWriteContext } from './services/write-context.ts';
export type { WriteContext } from './services/write-context.ts';

export { boardTools } from './tools/board-tools.ts';

export { createSqliteCallLog } from './kit/call-log.sqlite.ts';
export type { SqliteCallLog } from './kit/call-log.sqlite.ts';
export type { BoardCallLog, CallLogQuery } from './kit/call-log.ts';
export { createSqliteIdempotencyStore } from './kit/idempotency-store.sqlite.ts';
export { createPgIdempotencyStore } from './kit/idempotency-store.pg.ts';
export { createPgCallLog } from './kit/call-log.pg.ts';
export { pgRateLimitStoreFactory } from './kit/rate-limit-store.pg.ts';
export type { SqliteIdempotencyStore } from './kit/idempotency-store.sqlite.ts';
export { sqliteRateLimitStoreFactory } from './kit/rate-limit-store.sqlite.ts';
export type { LimiterOptions } from './kit/rate-limit-store.sqlite.ts';

export { runCli } from './cli/main.ts';

export { boardOAuth } from './oauth/board-oauth.ts';
export type { BoardOAuthOptions, BoardOAuthWiring } from './oauth/board-oauth.ts';
export { createAuthorizationServer, OAUTH_ROUTES } from './oauth/authorization-server.ts';
export type { AuthorizationServer, AuthorizationServerOptions } from './oauth/authorization-server.ts';
export { BOARD_SCOPES, effectiveRole } from './oauth/oauth-scopes.ts';
export type { BoardScope } from './oauth/oauth-scopes.ts';
export type { GrantRecord, OAuthStore } from './oauth/oauth-store.ts';
export { createSqliteOAuthStore } from './oauth/oauth-store.sqlite.ts';
export { createPgOAuthStore } from './oauth/oauth-store.pg.ts';
export { AccountError } from './oauth/member-accounts.ts';
export type { MemberAccounts } from './oauth/member-accounts.ts';
export { UnknownGrantError } from './oauth/oauth-grants.ts';
export type { OAuthGrants } from './oauth/oauth-grants.ts';
