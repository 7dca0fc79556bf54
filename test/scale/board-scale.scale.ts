/**
 * `npm run test:scale`: three board instances on one PostgreSQL behind HAProxy, 30 members writing through it
 * (at least 2,000 acknowledged writes) while one instance is SIGKILLed and another restarted; prints the figures.
 */
import { describe, it } from 'vitest';
import { runScale } from './scale-run.ts';
import { describeFigures, expectSound } from './scale-report.ts';

describe('board at scale behind HAProxy', () => {
  it(
    'loses and duplicates nothing, counts rate limits across instances and logs every call',
    async () => {
      const figures = await runScale({
        members: 30,
        writesPerMember: 75,
        loadBudgetMs: 12 * 60_000,
        log: (line) => console.log(`[scale] ${line}`),
      });
      for (const line of describeFigures(figures)) console.log(`[scale] ${line}`);
      expectSound(figures, 2000);
    },
    20 * 60_000,
  );
});
