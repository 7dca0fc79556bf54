/**
 * Database rows of the board's domain tables and their mapping to domain records, shared by the SQLite and the
 * PostgreSQL stores (the tables have the same columns in both).
 *
 * @packageDocumentation
 */
import type { Member } from '../domain/member.ts';
import type { Role } from '../domain/roles.ts';
import type { Comment, HistoryEntry, Task, TaskStatus } from '../domain/task.ts';
import type { TokenRecord } from '../domain/token.ts';
import type { TaskPatch, TokenHolder } from './board-store.ts';

/** A `tasks` row; `labels` is JSON text (SQLite) or already parsed (PostgreSQL JSONB). */
export interface TaskRow {
  ref: string;
  title: string;
  description: string;
  status: string;
  assignee: string | null;
  labels: string | string[];
  due: string | null;
  version: number;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** A `members` row. */
export interface MemberRow {
  id: string;
  name: string;
  kind: string;
  role: string;
  created_at: string;
  revoked_at: string | null;
}

/** A `tokens` row. */
export interface TokenRow {
  id: string;
  member_id: string;
  hash: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

/** A `members` row joined with the columns of one of its tokens, prefixed `token_`. */
export interface TokenHolderRow extends MemberRow {
  token_id: string;
  token_hash: string;
  token_prefix: string;
  token_created_at: string;
  token_expires_at: string | null;
  token_revoked_at: string | null;
}

/** The columns of a {@link TokenHolderRow}, for `FROM tokens t JOIN members m ON m.id = t.member_id`. */
export const TOKEN_HOLDER_COLUMNS =
  'm.*, t.id AS token_id, t.hash AS token_hash, t.prefix AS token_prefix, t.created_at AS token_created_at, ' +
  't.expires_at AS token_expires_at, t.revoked_at AS token_revoked_at';

/** A `comments` row; `id` is a string when PostgreSQL returns a BIGINT. */
export interface CommentRow {
  id: number | string;
  ref: string;
  author_id: string;
  body: string;
  created_at: string;
}

/** A `history` row. */
export interface HistoryRow {
  ref: string;
  member_id: string;
  action: string;
  field: string | null;
  from_value: string | null;
  to_value: string | null;
  at: string;
}

/** The `tasks` column of each field a {@link TaskPatch} may set. */
export const TASK_PATCH_COLUMNS: Readonly<Record<keyof TaskPatch, string>> = {
  title: 'title',
  description: 'description',
  status: 'status',
  assignee: 'assignee',
  labels: 'labels',
  due: 'due',
};

/** Escapes `%`, `_` and `\` and wraps `text` for a substring (I)LIKE pattern with `ESCAPE '\'`. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Maps a `tasks` row to a {@link Task}. */
export function toTask(row: TaskRow): Task {
  return {
    ref: row.ref,
    title: row.title,
    description: row.description,
    status: row.status as TaskStatus,
    assignee: row.assignee,
    labels: typeof row.labels === 'string' ? (JSON.parse(row.labels) as string[]) : row.labels,
    due: row.due,
    version: row.version,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Maps a `members` row to a {@link Member}. */
export function toMember(row: MemberRow): Member {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as Member['kind'],
    role: row.role as Role,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

/** Maps a `tokens` row to a {@link TokenRecord}. */
export function toToken(row: TokenRow): TokenRecord {
  return {
    id: row.id,
    memberId: row.member_id,
    hash: row.hash,
    prefix: row.prefix,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}

/** Maps a `comments` row to a {@link Comment}. */
export function toComment(row: CommentRow): Comment {
  return {
    id: Number(row.id),
    ref: row.ref,
    authorId: row.author_id,
    body: row.body,
    createdAt: row.created_at,
  };
}

/** Maps a `history` row to a {@link HistoryEntry}. */
export function toHistory(row: HistoryRow): HistoryEntry {
  return {
    ref: row.ref,
    memberId: row.member_id,
    action: row.action,
    field: row.field,
    from: row.from_value,
    to: row.to_value,
    at: row.at,
  };
}

/** Maps a {@link TokenHolderRow} to the token and its member. */
export function toTokenHolder(row: TokenHolderRow): TokenHolder {
  return {
    member: toMember(row),
    token: {
      id: row.token_id,
      memberId: row.id,
      hash: row.token_hash,
      prefix: row.token_prefix,
      createdAt: row.token_created_at,
      expiresAt: row.token_expires_at,
      revokedAt: row.token_revoked_at,
    },
  };
}
