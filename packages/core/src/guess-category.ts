/**
 * Best-effort categorisation of `isError` results from servers that do not send Recourse's `_meta`.
 *
 * @packageDocumentation
 */
import type { FailureCategory } from './failure.ts';
import { resultText } from './wire-codec.ts';

/** Ordered cues: the first category whose pattern matches the text wins. */
const CUES: readonly (readonly [FailureCategory, RegExp])[] = [
  ['rate_limit', /\brate[ -]?limit|\btoo many (?:requests|calls)|\bthrottl|\bquota exceeded|\b429\b/i],
  [
    'transient',
    /\btime(?:d)?[ -]?out\b|\btimeout|\bunavailable\b|\btemporar(?:y|ily)\b|\btry again later\b|\bECONNRESET\b|\bECONNREFUSED\b|\b50[234]\b/i,
  ],
  [
    'permission',
    /\bpermission\b|\bforbidden\b|\bnot allowed\b|\bnot authori[sz]ed\b|\bunauthori[sz]ed\b|\baccess denied\b|\b403\b/i,
  ],
  ['not_found', /\bnot found\b|\bno such\b|\bdoes not exist\b|\bunknown (?:task|item|record|id)\b|\b404\b/i],
  ['conflict', /\bconflict\b|\balready exists\b|\bversion mismatch\b|\bstale\b|\b409\b/i],
  ['validation', /\binvalid\b|\bexpected\b|\brequired\b|\bmust be\b|\bvalidation\b|\bmalformed\b/i],
];

/**
 * Guesses the category of a foreign `isError` result (or a bare text) from its wording: "rate limit"/"too
 * many" → `rate_limit`, "timeout"/"unavailable" → `transient`, "permission"/"forbidden"/"not allowed" →
 * `permission`, "not found" → `not_found`, "conflict"/"already exists" → `conflict`, "invalid"/"expected" →
 * `validation`, anything else → `internal`. A guess only: prefer `decodeFailure` when `_meta` is present.
 */
export function guessCategory(result: unknown): FailureCategory {
  const text = typeof result === 'string' ? result : resultText(result);
  for (const [category, cue] of CUES) if (cue.test(text)) return category;
  return 'internal';
}
