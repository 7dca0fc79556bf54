/**
 * The narrow storage interface below the board's services. The services hold every rule; a store only keeps
 * and finds records. Methods are async so that a PostgreSQL store can implement the same interface.
 *
 * @packageDocumentation
 */
import type { Member } from '../domain/member.ts';
import type { Role } from '../domain/roles.ts';
import type { Comment, HistoryEntry, Task, TaskStatus } from '../domain/task.ts';
import type { TokenRecord } from '../domain/token.ts';

/** Filters and paging for {@link BoardStore.searchTasks}; all filters are ANDed. */
export interface TaskQuery {
  /** Case-insensitive substring of the title or description. */
  readonly text?: string;
  readonly status?: TaskStatus;
  /** A member id, or null for unassigned tasks. */
  readonly assignee?: string | null;
  readonly label?: string;
  readonly limit: number;
  readonly offset: number;
}

/** The fields of a task a change may set, besides its version and update time. */
export type TaskPatch = Partial<
  Pick<Task, 'title' | 'description' | 'status' | 'assignee' | 'labels' | 'due'>
>;

/** The write primitives available inside {@link BoardStore.transaction}; reads here see the transaction's writes. */
export interface BoardTx {
  getTask(ref: string): Promise<Task | undefined>;
  getMember(id: string): Promise<Member | undefined>;
  /** Allocates the next task number; numbers are never handed out twice, even after deletes. */
  nextTaskNumber(): Promise<number>;
  insertTask(task: Task): Promise<void>;
  /**
   * Applies `patch` when the task still has `expectedVersion`, setting its version to `expectedVersion + 1` and
   * its update time to `at`. Returns false (and changes nothing) when the task is missing or its version differs.
   */
  updateTask(ref: string, expectedVersion: number, patch: TaskPatch, at: string): Promise<boolean>;
  /** Deletes a task and its comments (its history stays). Returns false when there was no such task. */
  deleteTask(ref: string): Promise<boolean>;
  insertComment(comment: Omit<Comment, 'id'>): Promise<Comment>;
  insertHistory(entries: readonly HistoryEntry[]): Promise<void>;
  insertMember(member: Member): Promise<void>;
  /** How many members hold the owner role and are not revoked. */
  countActiveOwners(): Promise<number>;
  /** Returns false when there is no such member. */
  updateMember(id: string, patch: { role?: Role; revokedAt?: string }): Promise<boolean>;
  insertToken(token: TokenRecord): Promise<void>;
  /** Marks a token revoked at `at`; returns false when it was missing or already revoked. */
  revokeToken(id: string, at: string): Promise<boolean>;
}

/** A token and the member who holds it, as {@link BoardStore.findTokenHolder} finds them. */
export interface TokenHolder {
  readonly token: TokenRecord;
  readonly member: Member;
}

/** A task with its comments and history, as {@link BoardStore.getTaskDetail} reads them. */
export interface TaskDetail {
  readonly task: Task;
  readonly comments: Comment[];
  readonly history: HistoryEntry[];
}

/** Storage of members, tasks, comments, history and tokens. */
export interface BoardStore {
  getTask(ref: string): Promise<Task | undefined>;
  /**
   * A task with its comments and history (oldest first), read together as of one moment; undefined when there
   * is no such task (then nothing else is read).
   */
  getTaskDetail(ref: string): Promise<TaskDetail | undefined>;
  searchTasks(query: TaskQuery): Promise<{ tasks: Task[]; total: number }>;
  countTasks(): Promise<number>;
  listComments(ref: string): Promise<Comment[]>;
  listHistory(ref: string): Promise<HistoryEntry[]>;
  getMember(id: string): Promise<Member | undefined>;
  listMembers(): Promise<Member[]>;
  findTokenByHash(hash: string): Promise<TokenRecord | undefined>;
  /**
   * The token with record id `tokenId` and the member holding it, in one indexed lookup (the stdio re-check runs
   * it on every call); undefined when there is no such token.
   */
  findTokenHolder(tokenId: string): Promise<TokenHolder | undefined>;
  /**
   * The token whose hash is `hash` and the member holding it, in one indexed lookup (the HTTP host verifies a
   * bearer token with it on every request); undefined when there is no such token.
   */
  findTokenHolderByHash(hash: string): Promise<TokenHolder | undefined>;
  listTokens(): Promise<TokenRecord[]>;
  /**
   * Runs `work` as one atomic transaction: all of its writes land or none do. When `signal` has fired by the
   * time `work` finishes, the transaction is rolled back and the signal's reason is thrown.
   */
  transaction<T>(work: (tx: BoardTx) => Promise<T>, signal?: AbortSignal): Promise<T>;
  close(): Promise<void>;
}
