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

/**
 * Ordered cues: the first category whose pattern matches the text wins. Permission, validation and conflict
 * wording is read before the transient cues, so that "…and try again" or an argument named `timeout` in a
 * refusal does not make it look transient; weak validation words (`invalid`, `expected`, `required`) come last.
 */
const CUES: readonly (readonly [FailureCategory, RegExp])[] = [
  [
    'rate_limit',
    new RegExp(
      `\\brate[ -]?limit|\\btoo many (?:requests|calls)|\\bthrottl|\\bquota exceeded|\\breached (?:that|the|its|this|their|your) limit\\b|\\blimit (?:reached|exceeded)\\b|${httpStatus('429')}`,
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
    'validation',
    /\binvalid (?:arguments?|input|options?|params|parameters?|values?|type)\b|\bvalidation\b|\bmalformed\b|\bmust be\b|\bis required\b|\bmissing required\b/i,
  ],
  [
    'conflict',
    new RegExp(
      `\\bconflict\\b|\\balready exists\\b|\\bsomeone (?:else )?changed\\b|\\bchanged since\\b|\\bversion mismatch\\b|\\bstale\\b|\\bunique constraint\\b|\\bduplicate key\\b|${httpStatus('409')}`,
      'i',
    ),
  ],
  [
    'transient',
    new RegExp(
      [
        '\\btime(?:d)?[ -]?out\\b|\\btimeout|\\bunavailable\\b|\\btemporar(?:y|ily)\\b|\\btry again\\b|\\bbad gateway\\b',
        '\\brefused\\b|\\bconnection (?:was )?(?:reset|closed|lost|terminated)\\b|\\breset by peer\\b|\\bsocket hang up\\b|\\bfetch failed\\b',
        '\\bnetwork error\\b|\\boverloaded\\b|\\bdatabase is locked\\b|\\bdeadlock\\b',
        '\\bE(?:CONNRESET|CONNREFUSED|CONNABORTED|TIMEDOUT|PIPE|NETUNREACH|HOSTUNREACH|NOTFOUND|AI_AGAIN)\\b',
        httpStatus('50[234]'),
      ].join('|'),
      'i',
    ),
  ],
  [
    'not_found',
    new RegExp(
      `\\bnot found\\b|\\bno such\\b|\\bdoes not exist\\b|\\bno \\w+ [\\w#:-]+ exists\\b|\\bunknown (?:task|item|record|id|tool)\\b|${httpStatus('404')}`,
      'i',
    ),
  ],
  ['validation', /\binvalid\b|\bexpected\b|\brequired\b/i],
];

/**
 * Guesses the category of a foreign `isError` result (or a bare text) from its wording, in this order: "rate
 * limit"/"too many" → `rate_limit`; "permission"/"forbidden"/"not allowed" → `permission`; "invalid
 * argument"/"validation"/"must be"/"is required" → `validation`; "conflict"/"already exists"/"unique constraint"
 * → `conflict`; "timed out"/"unavailable"/"refused"/"connection reset"/"try again"/"database is locked" and the
 * Node network error codes → `transient`; "not found"/"no such" → `not_found`; "invalid"/"expected"/"required" →
 * `validation`; anything else → `internal`. HTTP statuses count only where the text says they are one. A guess
 * only: prefer `decodeFailure` when `_meta` is present.
 */
export function guessCategory(result: unknown): FailureCategory {
  const text = typeof result === 'string' ? result : resultText(result);
  for (const [category, cue] of CUES) if (cue.test(text)) return category;
  return 'internal';
}
