/**
 * Short, model-friendly texts and structured content for tasks and members.
 *
 * @packageDocumentation
 */
import type { Member } from '../domain/member.ts';
import type { Task } from '../domain/task.ts';

/** One line about a task: ref, status, title, assignee, version. */
export function taskLine(task: Task): string {
  const who = task.assignee === null ? 'unassigned' : `assigned to ${task.assignee}`;
  const labels = task.labels.length > 0 ? `, labels ${task.labels.join(', ')}` : '';
  const due = task.due !== null ? `, due ${task.due}` : '';
  return `${task.ref} [${task.status}] "${task.title}" (${who}${labels}${due}, version ${task.version})`;
}

/** A task as plain JSON for `structuredContent`. */
export function taskData(task: Task): Record<string, unknown> {
  return { ...task, labels: [...task.labels] };
}

/** A member as plain JSON for `structuredContent`. */
export function memberData(member: Member): Record<string, unknown> {
  return {
    id: member.id,
    name: member.name,
    kind: member.kind,
    role: member.role,
    createdAt: member.createdAt,
  };
}
