import { describe, expect, it } from 'vitest';
import { medianInterval } from './stats.ts';

const ranks = (n: number): number[] => Array.from({ length: n }, (_, i) => n - i); // n … 1, unsorted on purpose

describe('medianInterval', () => {
  it('takes the order statistics of the binomial table for 95 % (ranks 3 and 10 of 12, 7 and 18 of 24)', () => {
    expect(medianInterval(ranks(12))).toEqual({ low: 3, high: 10, exact: true });
    expect(medianInterval(ranks(24))).toEqual({ low: 7, high: 18, exact: true });
    expect(medianInterval(ranks(9))).toEqual({ low: 2, high: 8, exact: true });
  });

  it('narrows for a lower confidence and needs at least 6 rounds for 95 %', () => {
    expect(medianInterval(ranks(12), 0.8)).toEqual({ low: 4, high: 9, exact: true });
    expect(medianInterval(ranks(6))).toEqual({ low: 1, high: 6, exact: true });
    expect(medianInterval(ranks(5))).toEqual({ low: 1, high: 5, exact: false });
    expect(medianInterval([]).exact).toBe(false);
  });
});
