/**
 * The board's own failures, built as {@link ToolFailure}s so that the pipeline renders them as written.
 * Each says what failed with the wrong value, what is accepted, the next step, and that nothing changed.
 *
 * @packageDocumentation
 */
import { ToolFailure } from '@recourse/core';

/** `not_found` `TASK_NOT_FOUND`: no task has `ref`. */
export function taskNotFound(ref: string): ToolFailure {
  return new ToolFailure({
    category: 'not_found',
    code: 'TASK_NOT_FOUND',
    message: `No task ${ref} exists on the board.`,
    received: ref,
    expected: 'Task refs look like T-12 and name an existing task.',
    next: 'Call tasks_search to find a task by its title.',
    retryable: false,
    changed: false,
  });
}

/** `not_found` `MEMBER_NOT_FOUND`: no active member has `id`. */
export function memberNotFound(id: string, argument: string): ToolFailure {
  return new ToolFailure({
    category: 'not_found',
    code: 'MEMBER_NOT_FOUND',
    message: `Argument \`${argument}\` names member ${JSON.stringify(id)}, who is not an active member of the board.`,
    field: argument,
    received: id,
    expected: 'The id of an active member, like m_3kq9x7d2bz4w.',
    next: 'Call members_list to see the members and their ids.',
    retryable: false,
    changed: false,
  });
}

/** `conflict` `VERSION_CONFLICT`: the task changed since the caller read it. */
export function versionConflict(ref: string, expected: number, current: number): ToolFailure {
  return new ToolFailure({
    category: 'conflict',
    code: 'VERSION_CONFLICT',
    message: `Task ${ref} is at version ${current}, not version ${expected}: someone changed it since you read it.`,
    field: 'expectedVersion',
    received: String(expected),
    expected: `expectedVersion ${current}, the task's current version.`,
    next: `Call tasks_get for ${ref} to re-read it, then apply your change to the current version.`,
    retryable: false,
    changed: false,
  });
}

/**
 * `permission` `PERMISSION_CONDITION_UNMET`: the caller's role holds `permission` only under a condition
 * (own or assigned tasks, self only) that this call does not meet.
 */
export function conditionUnmet(options: {
  permission: string;
  role: string;
  grantedTo: readonly string[];
  condition: string;
  next: string;
}): ToolFailure {
  return new ToolFailure({
    category: 'permission',
    code: 'PERMISSION_CONDITION_UNMET',
    message: `Your role ${options.role} holds ${options.permission} only ${options.condition}.`,
    next: options.next,
    retryable: false,
    changed: false,
    permission: { missing: options.permission, role: options.role, grantedTo: options.grantedTo },
  });
}

/** `business` `LAST_OWNER`: the change would leave the board without an active owner. */
export function lastOwner(memberId: string): ToolFailure {
  return new ToolFailure({
    category: 'business',
    code: 'LAST_OWNER',
    message: `Member ${memberId} is the board's last active owner and cannot lose the owner role.`,
    expected: 'Another active owner first.',
    next: 'Make another member owner first, then change this one.',
    retryable: false,
    changed: false,
  });
}
