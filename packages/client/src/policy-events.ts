/**
 * Typed policy events (retry, give-up, break, half-open, reset, reroute), so hosts can log and count them.
 *
 * @packageDocumentation
 */
import type { RecourseCallError } from './errors.ts';
import type { GiveUpReason } from './retry-policy.ts';

/** The payload of each policy event, by name. */
export interface PolicyEventMap {
  /** A failed attempt will be repeated after `delayMs`. */
  retry: { server: string; tool: string; attempt: number; delayMs: number; error: RecourseCallError };
  /** The call stopped failing for good after `attempts` attempts. */
  give_up: { server: string; tool: string; attempts: number; reason: GiveUpReason; error: RecourseCallError };
  /** The breaker of a tool opened: calls fail fast with `circuit_open`. */
  break: { server: string; tool: string };
  /** The breaker lets one trial call through. */
  half_open: { server: string; tool: string };
  /** The breaker closed again after a successful trial call. */
  reset: { server: string; tool: string };
  /** A call was sent to its declared fallback because the tool's breaker was open. */
  reroute: { server: string; tool: string; toServer: string; toTool: string };
}

/** One of the event names of {@link PolicyEventMap}. */
export type PolicyEventName = keyof PolicyEventMap;

/** A listener of event `K`. */
export type PolicyListener<K extends PolicyEventName> = (event: PolicyEventMap[K]) => void;

/** A small typed event hub; a throwing listener never breaks a call. */
export class PolicyEvents {
  readonly #listeners = new Map<PolicyEventName, Set<(event: never) => void>>();

  /** Subscribes to `name`; returns the function that unsubscribes. */
  on<K extends PolicyEventName>(name: K, listener: PolicyListener<K>): () => void {
    const set = this.#listeners.get(name) ?? new Set();
    set.add(listener);
    this.#listeners.set(name, set);
    return () => void set.delete(listener);
  }

  /** Delivers `event` to the listeners of `name`. */
  emit<K extends PolicyEventName>(name: K, event: PolicyEventMap[K]): void {
    for (const listener of this.#listeners.get(name) ?? []) {
      try {
        (listener as PolicyListener<K>)(event);
      } catch {
        // listeners must not change the outcome of a call
      }
    }
  }
}
