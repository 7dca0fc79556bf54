/**
 * The board's own failures, built with the `@recourse/core` helpers so that the pipeline renders them as
 * written. Each says what failed with the wrong value, what is accepted, the next step, and that nothing changed.
 *
 * @packageDocumentation
 */
import { businessRule, conflict, notFound, permissionDenied, type ToolFailure } from '@recourse/core';

/** `not_found` `TASK_NOT_FOUND`: no task has `ref`. */
export function taskNotFound(ref: string): ToolFailure {
  return notFound({
    code: 'TASK_NOT_FOUND',
    message: `No task ${ref} exists on the board.`,
    expected: 'Task refs look like T-12 and name an existing task.',
    next: 'Call tasks_search to find a task by its title.',
  }).with({ received: ref });
}

/** `not_found` `MEMBER_NOT_FOUND`: no active member has `id` (given as `argument`). */
export function memberNotFound(id: string, argument: string): ToolFailure {
  return notFound({
    code: 'MEMBER_NOT_FOUND',
    message: `Argument \`${argument}\` names member ${JSON.stringify(id)}, who is not an active member of the board.`,
    expected: 'The id of an active member, like m_3kq9x7d2bz4w.',
    next: 'Call members_list to see the members and their ids.',
  }).with({ field: argument, received: id });
}

/** `conflict` `VERSION_CONFLICT`: the task changed since the caller read it. */
export function versionConflict(ref: string, expected: number, current: number): ToolFailure {
  return conflict({
    code: 'VERSION_CONFLICT',
    message: `Task ${ref} is at version ${current}, not version ${expected}: someone changed it since you read it.`,
    expected: `expectedVersion ${current}, the task's current version.`,
    next: `Call tasks_get for ${ref} to re-read it, then apply your change to the current version.`,
  }).with({ field: 'expectedVersion', received: String(expected) });
}

/**
 * `permission` `PERMISSION_CONDITION_UNMET`: the caller's role holds `permission` only under a condition
 * (own or assigned tasks, self only) that this call does not meet. The text names the condition.
 */
export function conditionUnmet(options: {
  permission: string;
  role: string;
  grantedTo: readonly string[];
  condition: string;
  next: string;
}): ToolFailure {
  return permissionDenied({
    code: 'PERMISSION_CONDITION_UNMET',
    permission: options.permission,
    role: options.role,
    grantedTo: options.grantedTo,
    message: `Your role ${options.role} holds ${options.permission} only ${options.condition}.`,
    next: options.next,
  });
}

/** `business` `LAST_OWNER`: the change would leave the board without an active owner. */
export function lastOwner(memberId: string): ToolFailure {
  return businessRule({
    code: 'LAST_OWNER',
    message: `Member ${memberId} is the board's last active owner and cannot lose the owner role.`,
    expected: 'Another active owner first.',
    next: 'Make another member owner first, then change this one.',
  });
}
