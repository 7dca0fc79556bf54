/**
 * Builds the model-facing text of a failure: the text that stands alone when a client keeps nothing else.
 *
 * @packageDocumentation
 */
import type { FailureData, PermissionDetail } from './failure.ts';

/** What may follow a sentence's final punctuation: closing quotes and brackets. */
const CLOSERS = '"\')]`';
/** Sentence punctuation. */
const STOPS = '.!?…';
/** Whitespace that `normalise` must collapse: a run of two, or any other than a plain space. */
const UNEVEN_SPACE = /\s\s|[^\S ]/;

/** True when `text` ends with sentence punctuation, perhaps followed by closing quotes or brackets. */
function endsSentence(text: string): boolean {
  let end = text.length - 1;
  while (end >= 0 && CLOSERS.includes(text.charAt(end))) end--;
  return end >= 0 && STOPS.includes(text.charAt(end));
}

/** Ends a fragment with a full stop unless it already ends with sentence punctuation. */
function asSentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  return endsSentence(trimmed) ? trimmed : `${trimmed}.`;
}

/** Upper-cases the first letter of a fragment that starts lower-case. */
function capitalise(text: string): string {
  const first = text.charAt(0);
  const upper = first.toUpperCase();
  return upper === first ? text : upper + text.slice(1);
}

/**
 * Normalises a sentence for duplicate detection: case, spacing and final punctuation are ignored. Loops instead
 * of patterns where the text needs nothing (it runs for every sentence of every failure).
 */
function normalise(text: string): string {
  let out = text.toLowerCase();
  if (UNEVEN_SPACE.test(out)) out = out.replace(/\s+/g, ' ');
  let end = out.length;
  while (end > 0 && STOPS.includes(out.charAt(end - 1))) end--;
  return (end === out.length ? out : out.slice(0, end)).trim();
}

/**
 * Says how long to wait: whole seconds (rounded up) from one second on, milliseconds below.
 * Examples: `250` → `250 ms`, `1000` → `1 s`, `22_001` → `23 s`.
 */
export function formatWait(ms: number): string {
  const safe = Number.isFinite(ms) && ms > 0 ? ms : 0;
  if (safe < 1000) return `${Math.ceil(safe)} ms`;
  return `${Math.ceil(safe / 1000)} s`;
}

/** The retry advice sentence of a failure. */
function retryAdvice(failure: FailureData): string {
  if (!failure.retryable) return 'Retrying unchanged will not help.';
  if (failure.retryAfterMs !== undefined && failure.retryAfterMs > 0) {
    return `Wait ${formatWait(failure.retryAfterMs)} and try again.`;
  }
  return 'Retrying may help; try again shortly.';
}

/** The sentence saying what changed before the failure. */
function changedText(changed: boolean | number): string {
  if (changed === false || changed === 0) return 'Nothing was changed.';
  if (changed === true)
    return 'Part of the work was done before it failed; check the current state before trying again.';
  const n = Math.max(1, Math.floor(changed));
  return `Part of the work was done: ${n} ${n === 1 ? 'change was' : 'changes were'} made before it failed.`;
}

/** The sentence naming the permission lacking, the role held and the roles that hold it. */
function permissionText(permission: PermissionDetail): string {
  const holders =
    permission.grantedTo.length > 0
      ? `roles that hold it: ${permission.grantedTo.join(', ')}`
      : 'no role holds it';
  return `This needs permission ${permission.missing}; your role is ${permission.role}; ${holders}.`;
}

/** The `expected` field as a sentence: kept as written when it is one, else prefixed with "Expected". */
function expectedText(expected: string): string {
  const trimmed = expected.trim();
  const isSentence = /^[A-Z]/.test(trimmed) && /[.!?]$/.test(trimmed);
  return isSentence ? trimmed : asSentence(`Expected ${trimmed}`);
}

/**
 * Renders the text of a failure that stands alone: the message (what failed and the wrong value), what is
 * accepted, the permission detail, the next step, what changed, whether and when retrying helps, and the
 * correlation id when present. Deterministic; a part already said by the message is not repeated.
 *
 * @example
 * renderFailureText({ category: 'not_found', code: 'TASK_NOT_FOUND', message: 'No task T-9.',
 *   expected: 'Task refs look like T-1.', next: 'Call tasks_search to find a task by its title.',
 *   retryable: false, changed: false })
 * // "No task T-9. Task refs look like T-1. Call tasks_search to find a task by its title.
 * //  Nothing was changed. Retrying unchanged will not help."
 */
export function renderFailureText(failure: FailureData): string {
  const parts: string[] = [];
  const seen: string[] = [];
  const add = (sentence: string): void => {
    const text = asSentence(sentence);
    if (text === '') return;
    const key = normalise(text);
    if (seen.some((said) => said.includes(key))) return;
    parts.push(text);
    seen.push(key);
  };

  add(capitalise(failure.message.trim()));
  if (failure.expected !== undefined && failure.expected.trim() !== '') {
    const already = normalise(failure.message).includes(normalise(failure.expected));
    if (!already) add(expectedText(failure.expected));
  }
  if (failure.permission !== undefined) add(permissionText(failure.permission));
  if (failure.next !== undefined) add(capitalise(failure.next.trim()));
  add(changedText(failure.changed));
  add(retryAdvice(failure));
  if (failure.correlationId !== undefined && failure.correlationId !== '') {
    add(`The server logged this failure as ${failure.correlationId}; quote it when reporting the problem.`);
  }
  return parts.join(' ');
}
