/**
 * The board's services bundled together, built over one store.
 *
 * @packageDocumentation
 */
import type { BoardStore } from '../store/board-store.ts';
import { createMemberService, type MemberService } from './member-service.ts';
import { createTaskService, type TaskService } from './task-service.ts';
import { createTokenService, type TokenService } from './token-service.ts';

/** Tasks, members and tokens over one store. */
export interface BoardServices {
  readonly store: BoardStore;
  readonly tasks: TaskService;
  readonly members: MemberService;
  readonly tokens: TokenService;
}

/** Builds every service over `store`; `now` (default: the system clock) stamps writes and checks expiry. */
export function createBoardServices(store: BoardStore, options: { now?: () => Date } = {}): BoardServices {
  return {
    store,
    tasks: createTaskService(store, options),
    members: createMemberService(store, options),
    tokens: createTokenService(store, options),
  };
}
