/**
 * A linear, non-recursive measure of how deeply a JSON text nests, so that a too-deep message is refused before
 * any code that recurses over it (schema conversion, validation, serialisation) sees it.
 *
 * @packageDocumentation
 */

/** Default deepest nesting of a request: 64 levels of arrays and objects. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/**
 * How deeply `text` nests arrays and objects, counting up to `limit + 1` and stopping there (so a 100 000-deep
 * text costs no more than a shallow one). Brackets inside strings do not count. Works on any text: malformed
 * JSON is measured as far as its brackets go and left to the parser to refuse.
 */
export function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return deepest;
}

/**
 * The one-sentence refusal of a message nesting deeper than `limit`, for HTTP (400, -32600) and stdio (-32600).
 */
export function tooDeepMessage(limit: number): string {
  return (
    `The message nests JSON arrays and objects more than ${limit} levels deep, the limit of this server. ` +
    'Send the same request with flatter arguments; retrying it unchanged will be refused again. Nothing was changed.'
  );
}

/** The id of a parsed JSON-RPC request, or `null` when it is not a request object with a string or number id. */
export function requestIdOf(message: unknown): string | number | null {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return null;
  const id = (message as { id?: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * The id of the JSON-RPC request in `text` (a message refused for its depth), or `null` when it has none or is
 * not JSON; `JSON.parse` does not recurse in V8, so this is safe at any depth.
 */
export function idOfJsonText(text: string): string | number | null {
  try {
    return requestIdOf(JSON.parse(text));
  } catch {
    return null;
  }
}
