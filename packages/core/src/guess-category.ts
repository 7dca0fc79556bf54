/**
 * Best-effort categorisation of `isError` results from servers that do not send Recourse's `_meta`.
 *
 * @packageDocumentation
 */
import type { FailureCategory } from './failure.ts';
import { resultText } from './wire-codec.ts';

/**
 * An HTTP status among `codes`, only where the text says it is one (`HTTP 503`, `HTTP/1.1 403`,
 * `status 429`, `status code: 404`, `Error 503`, `code=409`), so that ids such as `T-503` or `#429` are not
 * read as statuses.
 */
function httpStatus(codes: string): string {
  return `(?:\\bHTTP(?:\\/[\\d.]+)?|\\bstatus(?:[ _-]?code)?|\\berror|\\bcode)[\\s:=]*(?:${codes})\\b`;
}

/** Ordered cues: the first category whose pattern matches the text wins. */
const CUES: readonly (readonly [FailureCategory, RegExp])[] = [
  [
    'rate_limit',
    new RegExp(
      `\\brate[ -]?limit|\\btoo many (?:requests|calls)|\\bthrottl|\\bquota exceeded|${httpStatus('429')}`,
      'i',
    ),
  ],
  [
    'transient',
    new RegExp(
      `\\btime(?:d)?[ -]?out\\b|\\btimeout|\\bunavailable\\b|\\btemporar(?:y|ily)\\b|\\btry again later\\b|\\bbad gateway\\b|\\bECONNRESET\\b|\\bECONNREFUSED\\b|${httpStatus('50[234]')}`,
      'i',
    ),
  ],
  [
    'permission',
    new RegExp(
      `\\bpermission\\b|\\bforbidden\\b|\\bnot allowed\\b|\\bnot authori[sz]ed\\b|\\bunauthori[sz]ed\\b|\\baccess denied\\b|${httpStatus('403')}`,
      'i',
    ),
  ],
  [
    'not_found',
    new RegExp(
      `\\bnot found\\b|\\bno such\\b|\\bdoes not exist\\b|\\bunknown (?:task|item|record|id)\\b|${httpStatus('404')}`,
      'i',
    ),
  ],
  [
    'conflict',
    new RegExp(
      `\\bconflict\\b|\\balready exists\\b|\\bversion mismatch\\b|\\bstale\\b|${httpStatus('409')}`,
      'i',
    ),
  ],
  ['validation', /\binvalid\b|\bexpected\b|\brequired\b|\bmust be\b|\bvalidation\b|\bmalformed\b/i],
];

/**
 * Guesses the category of a foreign `isError` result (or a bare text) from its wording: "rate limit"/"too
 * many" → `rate_limit`, "timeout"/"unavailable" → `transient`, "permission"/"forbidden"/"not allowed" →
 * `permission`, "not found" → `not_found`, "conflict"/"already exists" → `conflict`, "invalid"/"expected" →
 * `validation`, anything else → `internal`; HTTP statuses count only where the text says they are one. A guess
 * only: prefer `decodeFailure` when `_meta` is present.
 */
export function guessCategory(result: unknown): FailureCategory {
  const text = typeof result === 'string' ? result : resultText(result);
  for (const [category, cue] of CUES) if (cue.test(text)) return category;
  return 'internal';
}
