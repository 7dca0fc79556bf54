/**
 * The short scale scenario of `npm test` (the long one is `npm run test:scale`): three board instances on one
 * PostgreSQL behind HAProxy, members writing through it while one instance is SIGKILLed; nothing acknowledged is
 * lost or done twice, the rate limit holds across instances and every answered call is in the call log.
 */
import { describe, it } from 'vitest';
import { runScale } from './scale/scale-run.ts';
import { describeFigures, expectSound } from './scale/scale-report.ts';

describe('board instances behind HAProxy (short)', () => {
  it('loses and duplicates nothing when an instance is killed under load', async () => {
    const figures = await runScale({
      members: 6,
      writesPerMember: 25,
      loadBudgetMs: 90_000,
      restart: false,
      log: (line) => console.log(`[scale] ${line}`),
    });
    for (const line of describeFigures(figures)) console.log(`[scale] ${line}`);
    expectSound(figures, 100);
  }, 240_000);
});
