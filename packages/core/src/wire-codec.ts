/**
 * The wire format of a failure: an ordinary tool result with `isError: true`, a text that stands alone, and
 * `_meta["dev.recourse/failure"]` for programs.
 *
 * @packageDocumentation
 */
import { z } from 'zod';
import { FAILURE_CATEGORIES, type FailureData } from './failure.ts';
import { renderFailureText } from './failure-text.ts';
import { redactText } from './redact.ts';
import { REDACTION_RULES, type RedactionRule } from './redaction-rules.ts';

/** The `_meta` key of a failure, under our own reverse-DNS prefix (MCP reserves `io.modelcontextprotocol/`). */
export const FAILURE_META_KEY = 'dev.recourse/failure';

/** The failure entry in `_meta`: the fields of {@link FailureData} except `received`, redacted. */
export interface FailureMeta {
  readonly category: FailureData['category'];
  readonly code: string;
  readonly retryable: boolean;
  readonly changed: boolean | number;
  readonly message?: string;
  readonly next?: string;
  readonly retryAfterMs?: number;
  readonly field?: string;
  readonly expected?: string;
  readonly permission?: {
    readonly missing: string;
    readonly role: string;
    readonly grantedTo: readonly string[];
  };
  readonly correlationId?: string;
}

/** `T` with its properties writable, for building it field by field. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A tool result that carries a failure. */
export interface EncodedFailure {
  readonly isError: true;
  readonly content: [{ readonly type: 'text'; readonly text: string }];
  readonly _meta: { readonly 'dev.recourse/failure': FailureMeta };
  /** Index signature so that the result is assignable to the SDK's `CallToolResult`. */
  readonly [key: string]: unknown;
}

/** How many clean field texts {@link redactField} remembers per rule table before it starts over. */
const CLEAN_FIELDS_KEPT = 512;
/** Field texts that came out of the redactor unchanged, per rule table. Only clean texts: no secret is kept. */
const cleanFields = new WeakMap<readonly RedactionRule[], Set<string>>();

/**
 * {@link redactText} for a failure's fields, which are mostly the same few sentences on every failure of a kind
 * (`expected`, `next`, a permission's names): a text already found clean under `rules` is returned as it is
 * instead of passing through every rule again. The redactor is pure, so the answer is the same.
 */
function redactField(text: string, rules: readonly RedactionRule[]): string {
  let clean = cleanFields.get(rules);
  if (clean?.has(text) === true) return text;
  const out = redactText(text, rules);
  if (out === text) {
    if (clean === undefined) cleanFields.set(rules, (clean = new Set()));
    else if (clean.size >= CLEAN_FIELDS_KEPT) clean.clear();
    clean.add(text);
  }
  return out;
}

/**
 * Encodes a failure as a tool result: the text is {@link renderFailureText} passed through
 * {@link redactText}; `_meta` carries `category`, `code`, `retryable`, `changed` always, and `message`,
 * `next`, `retryAfterMs`, `field`, `expected`, `permission`, `correlationId` when present, all redacted.
 * `received` is never put in `_meta` (the text already shows its redacted form).
 *
 * @param rules - The redaction rules (default: the built-in table); see {@link redactText}. A table is taken as
 *   it is when first used: field texts found clean under it are remembered (bounded), so build a new array
 *   rather than change one in place.
 */
export function encodeFailure(
  failure: FailureData,
  rules: readonly RedactionRule[] = REDACTION_RULES,
): EncodedFailure {
  const redact = (text: string): string => redactField(text, rules);
  // Built field by field in the documented order (no spreads: this runs for every failure a server answers).
  const meta: Mutable<FailureMeta> = {
    category: failure.category,
    code: failure.code,
    retryable: failure.retryable,
    changed: failure.changed,
    message: redact(failure.message),
  };
  if (failure.next !== undefined) meta.next = redact(failure.next);
  if (failure.retryAfterMs !== undefined) meta.retryAfterMs = failure.retryAfterMs;
  if (failure.field !== undefined) meta.field = redact(failure.field);
  if (failure.expected !== undefined) meta.expected = redact(failure.expected);
  if (failure.permission !== undefined) {
    meta.permission = {
      missing: redact(failure.permission.missing),
      role: redact(failure.permission.role),
      grantedTo: failure.permission.grantedTo.map(redact),
    };
  }
  // A fresh id and the text that ends with it are new on every call: redacted without the memo.
  if (failure.correlationId !== undefined) meta.correlationId = redactText(failure.correlationId, rules);
  return {
    isError: true,
    content: [{ type: 'text', text: redactText(renderFailureText(failure), rules) }],
    _meta: { [FAILURE_META_KEY]: meta },
  };
}

const metaSchema = z.looseObject({
  category: z.enum(FAILURE_CATEGORIES),
  code: z.string().min(1),
  retryable: z.boolean(),
  changed: z.union([z.boolean(), z.number().nonnegative()]),
  message: z.string().optional(),
  next: z.string().optional(),
  retryAfterMs: z.number().nonnegative().optional(),
  field: z.string().optional(),
  expected: z.string().optional(),
  permission: z
    .looseObject({ missing: z.string(), role: z.string(), grantedTo: z.array(z.string()) })
    .optional(),
  correlationId: z.string().optional(),
});

/** The concatenated text parts of a tool result, or `''`. */
export function resultText(result: unknown): string {
  if (typeof result !== 'object' || result === null) return '';
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(
      (part): part is { type: 'text'; text: string } =>
        typeof part === 'object' &&
        part !== null &&
        (part as { type?: unknown }).type === 'text' &&
        typeof (part as { text?: unknown }).text === 'string',
    )
    .map((part) => part.text)
    .join('\n');
}

/**
 * Parses a tool result back into {@link FailureData}. Returns `undefined` for results that are not
 * `isError`, or that carry no valid `dev.recourse/failure` entry (foreign servers; see `guessCategory`).
 * Extra keys are tolerated. When `_meta` has no `message`, the result's text is used.
 */
export function decodeFailure(result: unknown): FailureData | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const { isError, _meta } = result as { isError?: unknown; _meta?: unknown };
  if (isError !== true || typeof _meta !== 'object' || _meta === null) return undefined;
  const parsed = metaSchema.safeParse((_meta as Record<string, unknown>)[FAILURE_META_KEY]);
  if (!parsed.success) return undefined;
  const m = parsed.data;
  const message = m.message ?? resultText(result);
  return {
    category: m.category,
    code: m.code,
    message,
    retryable: m.retryable,
    changed: m.changed,
    ...(m.next !== undefined && { next: m.next }),
    ...(m.retryAfterMs !== undefined && { retryAfterMs: m.retryAfterMs }),
    ...(m.field !== undefined && { field: m.field }),
    ...(m.expected !== undefined && { expected: m.expected }),
    ...(m.permission !== undefined && {
      permission: {
        missing: m.permission.missing,
        role: m.permission.role,
        grantedTo: m.permission.grantedTo,
      },
    }),
    ...(m.correlationId !== undefined && { correlationId: m.correlationId }),
  };
}
