/**
 * Pipeline step 4: the arguments against the tool's strict schema.
 *
 * @packageDocumentation
 */
import { failureFromZodError } from '@recourse/core';
import { IDEMPOTENCY_ARGUMENT, type CatalogTool } from '../tool-catalog.ts';

/** Validated arguments, with the idempotency key taken out. */
export interface ValidatedArguments {
  readonly args: Record<string, unknown>;
  readonly idempotencyKey?: string;
}

/**
 * Parses the arguments with the tool's strict validator (unknown keys refused). Refusals are tool results,
 * never -32602. Failure: `validation` / `INVALID_ARGUMENTS` (via core's `failureFromZodError`).
 */
export function validateArguments(tool: CatalogTool, raw: unknown): ValidatedArguments {
  const input = raw ?? {};
  const parsed = tool.validator.safeParse(input);
  if (!parsed.success) {
    throw failureFromZodError(parsed.error, input, { tool: tool.definition.name, schema: tool.validator });
  }
  const data: Record<string, unknown> = { ...parsed.data };
  if (tool.definition.idempotent !== true) return { args: data };
  const key = data[IDEMPOTENCY_ARGUMENT];
  delete data[IDEMPOTENCY_ARGUMENT];
  return typeof key === 'string' ? { args: data, idempotencyKey: key } : { args: data };
}
