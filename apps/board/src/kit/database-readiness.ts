/**
 * The board's readiness check for `/readyz`: the database answers and every migration this build knows is
 * applied.
 *
 * @packageDocumentation
 */
import type { ReadinessCheck } from '@recourse/server';

/**
 * A readiness check named `database` over `pending`, which answers the migration versions not applied yet
 * (rejecting when the database cannot be reached). Its failure messages name the problem and the next step,
 * never the driver's text (which may hold host names).
 */
export function databaseReadiness(pending: () => Promise<number[]> | number[]): ReadinessCheck {
  return {
    name: 'database',
    async check() {
      let missing: number[];
      try {
        missing = await pending();
      } catch {
        throw new Error('the database did not answer; check that it runs and that DATABASE_URL points to it');
      }
      if (missing.length > 0) {
        throw new Error(
          `migrations ${missing.join(', ')} are not applied; start one instance of this version to apply them`,
        );
      }
    },
  };
}
