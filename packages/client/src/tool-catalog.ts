/**
 * What the client knows about a server's tools: whether repeating a call is safe (`readOnlyHint`,
 * `idempotentHint`) and which argument carries an idempotency key the tool honours.
 *
 * @packageDocumentation
 */
import type { Tool } from '@modelcontextprotocol/client';
import { idempotencyArgumentOf } from '@recourse/core';

/** The retry-relevant traits of one tool. */
export interface ToolTraits {
  /** `readOnlyHint`: the tool changes nothing. */
  readonly readOnly?: boolean;
  /** `idempotentHint`: repeating the call with the same arguments has no further effect. */
  readonly idempotent?: boolean;
  /** The argument that carries an idempotency key the tool honours, from `_meta["dev.recourse/idempotency"]`. */
  readonly idempotencyArgument?: string;
  /** `execution.taskSupport`: the tool may (`optional`) or must (`required`) run as a task. */
  readonly task?: 'optional' | 'required';
}

/** Reads the traits of a listed tool. */
export function traitsOf(tool: Tool): ToolTraits {
  const argument = idempotencyArgumentOf(tool._meta);
  const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
  return {
    readOnly: tool.annotations?.readOnlyHint === true,
    idempotent: tool.annotations?.idempotentHint === true,
    ...(argument === undefined ? {} : { idempotencyArgument: argument }),
    ...(support === 'optional' || support === 'required' ? { task: support } : {}),
  };
}

const NO_TRAITS: ToolTraits = Object.freeze({});

/**
 * Caches the first successful `tools/list` for the life of the client (a tool's hints do not change with a
 * reconnection or another protocol version). A failed listing is not cached: the tool is treated as unsafe
 * to repeat for that call and listing is tried again on the next one. Overrides given by the caller win.
 */
export class ToolCatalog {
  readonly #load: (signal: AbortSignal) => Promise<readonly Tool[]>;
  readonly #overrides: Readonly<Record<string, ToolTraits>>;
  #tools: Map<string, ToolTraits> | undefined;
  /** Listed traits merged with the overrides, by tool, made once per tool after the listing arrived. */
  readonly #merged = new Map<string, ToolTraits>();

  constructor(
    load: (signal: AbortSignal) => Promise<readonly Tool[]>,
    overrides: Readonly<Record<string, ToolTraits>> = {},
  ) {
    this.#load = load;
    this.#overrides = overrides;
  }

  /** The traits of `tool` once the tools are listed, without waiting; undefined before that. */
  known(tool: string): ToolTraits | undefined {
    const tools = this.#tools;
    if (!tools) return undefined;
    let traits = this.#merged.get(tool);
    if (traits === undefined) {
      const listed = tools.get(tool);
      const override = this.#overrides[tool];
      // An unknown name is not remembered (callers may try any number of them).
      if (listed === undefined && override === undefined) return NO_TRAITS;
      traits = { ...(listed ?? {}), ...(override ?? {}) };
      this.#merged.set(tool, traits);
    }
    return traits;
  }

  /**
   * The traits of `tool`; `{}` (unsafe to repeat) when unknown, or when listing fails, takes longer than
   * `timeoutMs` or is cut short by the caller's `signal`.
   */
  async traits(tool: string, timeoutMs: number, signal?: AbortSignal): Promise<ToolTraits> {
    const override = this.#overrides[tool];
    if (!this.#tools) {
      try {
        const timeout = AbortSignal.timeout(Math.max(1, timeoutMs));
        const stop = signal === undefined ? timeout : AbortSignal.any([timeout, signal]);
        const stopped = new Promise<never>((_, reject) => {
          const fail = (): void => reject(new Error('Listing the tools took too long or was cancelled.'));
          if (stop.aborted) fail();
          else stop.addEventListener('abort', fail, { once: true });
        });
        const loading = this.#load(stop);
        loading.catch(() => undefined);
        const tools = await Promise.race([loading, stopped]);
        this.#tools = new Map(tools.map((t) => [t.name, traitsOf(t)]));
      } catch {
        return override ?? {};
      }
    }
    return this.known(tool) ?? {};
  }
}
