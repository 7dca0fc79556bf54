/**
 * fast-check arbitraries of hostile JSON-RPC traffic for the board: garbage bodies, well-formed envelopes with
 * a wrong type in every field, every board tool with arbitrary arguments, deep nesting, huge strings, and odd
 * HTTP headers, in both protocol eras (2026-07-28 per-request `_meta`, and 2025 `initialize`).
 */
import fc from 'fast-check';

/** The modern era's protocol version. */
export const MODERN = '2026-07-28';
/** The 2025 era's latest protocol version. */
export const LEGACY = '2025-11-25';

/** Every tool of the board. */
export const BOARD_TOOLS = [
  'whoami',
  'members_list',
  'tasks_create',
  'tasks_get',
  'tasks_search',
  'tasks_update',
  'tasks_move',
  'tasks_assign',
  'tasks_comment',
  'tasks_delete',
  'tasks_import',
  'board_export',
] as const;

/** Argument names the board's tools take, so that wrong types reach each field's validation. */
const FIELDS = [
  'ref',
  'title',
  'description',
  'status',
  'assignee',
  'labels',
  'due',
  'idempotencyKey',
  'query',
  'cursor',
  'limit',
  'text',
  'member',
  'tasks',
  'source',
  'format',
  'to',
  'position',
  'expectedVersion',
];

const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'logging/setLevel',
  'server/discover',
  'subscriptions/listen',
  'tasks/get',
  'tasks/list',
  'tasks/cancel',
  'notifications/initialized',
  'notifications/cancelled',
];

/** Any JSON value, small, with a bias to the types a field does not expect. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, '', 'x', [], {}),
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Values a tool field might half-expect: strings that look like refs, dates, statuses, and wrong types. */
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  anyValue,
  fc.constantFrom('T-1', 'T-0', 'T-99999999999', 'todo', 'done', '0000-01-01', '2026-02-30', 'owner', ' '),
  fc.array(anyValue, { maxLength: 4 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

const toolArguments: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), fieldValue, { maxKeys: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), anyValue, { maxKeys: 4 }) },
  { weight: 1, arbitrary: anyValue },
);

const meta: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(undefined),
  anyValue,
  fc.record(
    {
      'io.modelcontextprotocol/protocolVersion': fc.oneof(
        fc.constantFrom(MODERN, LEGACY, '1999-01-01'),
        anyValue,
      ),
      'io.modelcontextprotocol/clientCapabilities': fc.oneof(fc.constant({}), anyValue),
      'io.modelcontextprotocol/clientInfo': fc.oneof(fc.constant({ name: 'fuzz', version: '0' }), anyValue),
      'io.modelcontextprotocol/logLevel': fc.oneof(fc.constantFrom('debug', 'emergency'), anyValue),
      progressToken: anyValue,
    },
    { requiredKeys: [] },
  ),
);

/** A `_meta` valid for the modern era, so that a message reaches the method's own validation. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '0.0.1' },
};

const id: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 1_000_000 }) },
  { weight: 1, arbitrary: anyValue },
);

/** `tools/call` of a board tool with arbitrary arguments, with the era's `_meta` or a fuzzed one. */
const toolCall = fc.record({
  jsonrpc: fc.constant('2.0'),
  id,
  method: fc.constant('tools/call'),
  params: fc.record({
    name: fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...BOARD_TOOLS) },
      { weight: 1, arbitrary: anyValue },
    ),
    arguments: toolArguments,
    _meta: fc.oneof({ weight: 3, arbitrary: fc.constant(MODERN_META) }, { weight: 1, arbitrary: meta }),
  }),
});

/** An envelope in which any field may have a wrong type or be missing. */
const envelope = fc.record(
  {
    jsonrpc: fc.oneof({ weight: 4, arbitrary: fc.constant('2.0') }, { weight: 1, arbitrary: anyValue }),
    id,
    method: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...METHODS) },
      { weight: 1, arbitrary: anyValue },
    ),
    params: fc.oneof(
      fc.record(
        { _meta: meta, name: fc.constantFrom(...BOARD_TOOLS), arguments: toolArguments },
        { requiredKeys: [] },
      ),
      fc.record(
        {
          protocolVersion: fc.oneof(fc.constantFrom(MODERN, LEGACY, '2025-06-18'), anyValue),
          capabilities: anyValue,
          clientInfo: fc.oneof(fc.constant({ name: 'fuzz', version: '0' }), anyValue),
          cursor: anyValue,
          uri: anyValue,
          _meta: meta,
        },
        { requiredKeys: [] },
      ),
      anyValue,
    ),
    result: anyValue,
    error: anyValue,
  },
  { requiredKeys: [] },
);

/** `arguments` nested `depth` deep, built as text (JSON.stringify would recurse). */
export function deepBody(depth: number, era: 'modern' | 'legacy'): string {
  const metaText = era === 'modern' ? `,"_meta":${JSON.stringify(MODERN_META)}` : '';
  return (
    `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"tasks_create"${metaText},` +
    `"arguments":{"title":"deep","labels":${'['.repeat(depth)}${']'.repeat(depth)}}}}`
  );
}

const deep = fc
  .tuple(fc.integer({ min: 1, max: 120_000 }), fc.constantFrom('modern' as const, 'legacy' as const))
  .map(([depth, era]) => deepBody(depth, era));

/** A string field of 100 KiB to 900 KiB: inside the 1 MiB body limit. */
const huge = fc
  .tuple(
    fc.integer({ min: 100_000, max: 900_000 }),
    fc.constantFrom(...BOARD_TOOLS),
    fc.constantFrom(...FIELDS),
  )
  .map(([length, name, field]) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name, arguments: { [field]: 'x'.repeat(length) }, _meta: MODERN_META },
    }),
  );

const garbage = fc.oneof(
  fc.string({ maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.array(envelope, { maxLength: 5 }).map((batch) => JSON.stringify(batch)),
  envelope.map((message) => JSON.stringify(message).slice(0, -1)),
);

/** One hostile message's text, without headers: what the HTTP and stdio suites both send. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: toolCall.map((m) => JSON.stringify(m)) },
  { weight: 6, arbitrary: envelope.map((m) => JSON.stringify(m)) },
  { weight: 4, arbitrary: garbage },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: fc.constant(1).chain(() => huge) },
);

/** What a hostile HTTP request carries besides its body. */
export interface HostileHeaders {
  readonly contentType: string | undefined;
  readonly accept: string | undefined;
  readonly protocolVersion: string | undefined;
  /** `'valid'` uses the 2025 session opened for the run; other values are sent as they are. */
  readonly session: string | undefined;
  /** `'owner'` sends the owner's token; other values are sent as the Authorization header. */
  readonly authorization: string | undefined;
  /** `'match'` sends the Mcp-Method and Mcp-Name headers the body calls for; other values are sent as both. */
  readonly routing: string | undefined;
}

/** Printable ASCII: any header value fetch can send. */
function headerText(maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: 'grapheme-ascii', maxLength });
}

export const hostileHeaders: fc.Arbitrary<HostileHeaders> = fc.record({
  routing: fc.oneof(
    { weight: 8, arbitrary: fc.constant('match') },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.oneof(fc.constantFrom('tools/call', 'ping', 'whoami'), headerText(40)) },
  ),
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        undefined,
        'text/plain',
        'application/json; charset=utf-16',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json;;;',
      ),
    },
    { weight: 1, arbitrary: headerText(40) },
  ),
  accept: fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json, text/event-stream') },
    {
      weight: 2,
      arbitrary: fc.constantFrom(undefined, 'application/json', 'text/event-stream', '*/*', 'text/html'),
    },
    { weight: 1, arbitrary: headerText(40) },
  ),
  protocolVersion: fc.oneof(
    { weight: 6, arbitrary: fc.constant(MODERN) },
    { weight: 3, arbitrary: fc.constantFrom(LEGACY, '2025-06-18', '2025-03-26', undefined) },
    { weight: 1, arbitrary: headerText(30) },
  ),
  session: fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: fc.constant('valid') },
    { weight: 1, arbitrary: fc.oneof(fc.uuid(), headerText(80)) },
  ),
  authorization: fc.oneof(
    { weight: 12, arbitrary: fc.constant('owner') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        undefined,
        'Bearer ',
        'Bearer rbt_0000000000000000',
        'Basic YTpi',
        'bearer owner',
      ),
    },
    { weight: 1, arbitrary: headerText(60) },
  ),
});

/** A hostile HTTP request. */
export interface HostileRequest {
  readonly headers: HostileHeaders;
  readonly body: string;
}

export const hostileRequest: fc.Arbitrary<HostileRequest> = fc.record({
  headers: hostileHeaders,
  body: hostileText,
});
