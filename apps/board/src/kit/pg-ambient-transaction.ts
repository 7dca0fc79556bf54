/**
 * The PostgreSQL transaction a call's handler runs in when its idempotency claim and its writes must commit
 * together: the idempotency store opens it, and the board store joins it (its own transactions become savepoints
 * and its reads see the uncommitted writes) instead of taking another pooled connection.
 *
 * @packageDocumentation
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { PoolClient } from 'pg';

/** The pooled client of the transaction the current call runs in, if any. */
export interface PgAmbientTransaction {
  /** The client holding the open transaction of the current async context, or undefined outside one. */
  current(): PoolClient | undefined;
  /** Runs `work` with `client` (inside `BEGIN`) as the current transaction of its async context. */
  run<T>(client: PoolClient, work: () => Promise<T>): Promise<T>;
}

/** Creates one ambient transaction slot, shared by the stores of one pool. */
export function createPgAmbientTransaction(): PgAmbientTransaction {
  const storage = new AsyncLocalStorage<PoolClient>();
  return {
    current: () => storage.getStore(),
    run: (client, work) => storage.run(client, work),
  };
}
