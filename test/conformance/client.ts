/**
 * The MCP client under test for the conformance suites' client scenarios. The runner starts it as
 * `<command> <server-url>` with MCP_CONFORMANCE_SCENARIO (and, for some scenarios, MCP_CONFORMANCE_CONTEXT
 * and MCP_CONFORMANCE_PROTOCOL_VERSION) set. Exit code: 0 when the scenario's steps ran, 1 on an error,
 * 2 for a scenario this client does not know.
 *
 * Every scenario goes through `@recourse/client`. In the two where the server asks the client for input
 * (`elicitation-sep1034-client-defaults`, `sep-2322-client-request-state`) the client declares form elicitation
 * with `applyDefaults` and accepts every form with no content, so the SDK fills in the schema's defaults
 * (SEP-1034); on 2026-07-28 the SDK fulfils the `input_required` results with that answer and echoes `requestState`.
 */
import {
  createRecourseClient,
  isRecourseCallError,
  memoryOAuthStateStore,
  signIn,
  type ProtocolMode,
  type RecourseClient,
  type RecourseClientOptions,
} from '@recourse/client';

interface ToolCall {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}

const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
const serverUrl = process.argv.at(-1) ?? '';
const context = JSON.parse(process.env['MCP_CONFORMANCE_CONTEXT'] ?? '{}') as { toolCalls?: ToolCall[] };
const modern = (process.env['MCP_CONFORMANCE_PROTOCOL_VERSION'] ?? '') >= '2026';

/** Declares form elicitation (defaults applied by the SDK) and accepts every form with no content. */
const ANSWERING: Partial<RecourseClientOptions> = {
  capabilities: { elicitation: { form: { applyDefaults: true } } },
  onElicitation: () => Promise.resolve({ action: 'accept', content: {} }),
};

function recourse(
  protocol: ProtocolMode = modern ? 'modern' : 'legacy',
  extra: Partial<RecourseClientOptions> = {},
): RecourseClient {
  // Conformance mocks are single tools, not flaky services: one attempt, no breaker, so the suite sees each call once.
  return createRecourseClient({
    target: { url: serverUrl },
    name: 'conformance-mock',
    protocol,
    timeoutMs: 20_000,
    retry: { maxAttempts: 1 },
    breaker: false,
    ...extra,
  });
}

/** Calls a tool; a tool failure or protocol error is part of what the scenario observes, not a client error. */
async function call(client: RecourseClient, name: string, args: Record<string, unknown> = {}): Promise<void> {
  try {
    await client.callTool(name, args);
  } catch (error) {
    if (!isRecourseCallError(error) || (error.kind !== 'tool' && error.kind !== 'protocol')) throw error;
    console.error(`${name}: ${error.code}: ${error.message}`);
  }
}

async function withClient(
  run: (client: RecourseClient) => Promise<void>,
  protocol?: ProtocolMode,
  extra?: Partial<RecourseClientOptions>,
): Promise<void> {
  const client = recourse(protocol, extra);
  try {
    await run(client);
  } finally {
    await client.close();
  }
}

const scenarios: Record<string, () => Promise<void>> = {
  initialize: () => withClient(async (client) => void (await client.listTools()), 'legacy'),
  tools_call: () =>
    withClient(async (client) => {
      await client.listTools();
      await call(client, 'add_numbers', { a: 5, b: 3 });
    }),
  'elicitation-sep1034-client-defaults': () =>
    withClient((client) => call(client, 'test_client_elicitation_defaults'), undefined, ANSWERING),
  /** Every MRTR tool of the mock at once: state must be echoed per call, never mixed between calls. */
  'sep-2322-client-request-state': () =>
    withClient(
      async (client) => {
        const tools = await client.listTools();
        const settled = await Promise.allSettled(tools.map((tool) => client.callTool(tool.name, {})));
        // The SDK refuses a 2026 result without `resultType` (test_mrtr_no_result_type); the mock grades the requests.
        for (const outcome of settled) {
          if (outcome.status === 'rejected') {
            const reason: unknown = outcome.reason;
            console.error(reason instanceof Error ? reason.message : String(reason));
          }
        }
      },
      undefined,
      ANSWERING,
    ),
  'sse-retry': () => withClient((client) => call(client, 'test_reconnection'), 'legacy'),
  /** Lists the tools, then makes the calls the scenario's context names (or calls every tool with no arguments). */
  generic: () =>
    withClient(async (client) => {
      const tools = await client.listTools();
      const calls = context.toolCalls ?? tools.map((tool) => ({ name: tool.name, arguments: {} }));
      for (const planned of calls) await call(client, planned.name, planned.arguments ?? {});
    }),
  'json-schema-2020-12-preservation': () =>
    withClient(async (client) => {
      const tools = await client.listTools();
      const focal = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
      const echo = tools.find((tool) => tool !== focal);
      if (focal === undefined || echo === undefined)
        throw new Error('The mock listed no schema tool and echo tool.');
      await call(client, echo.name, { schema: focal.inputSchema });
    }),
};

const GENERIC = [
  'request-metadata',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
];

/** The Client ID Metadata Document URL the suite's `auth/basic-cimd` expects as the client id. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** Follows the mock authorization server's immediate approval to the client's loopback callback. */
async function approve(url: URL): Promise<void> {
  const answer = await fetch(url, { redirect: 'manual' });
  const location = answer.headers.get('location');
  if (location === null)
    throw new Error(`the authorization endpoint answered HTTP ${answer.status} without a redirect`);
  await fetch(new URL(location, url));
}

/**
 * The OAuth scenarios (`auth/*`): `signIn` draws the 401, discovers from it, registers (or uses the pre-registered
 * client of `auth/pre-registration`, or the metadata document URL where the server supports it) and builds the
 * authorization URL; the mock authorization server approves at once, so the "browser" only follows its redirect to
 * the loopback callback. Then the client lists the tools and calls `test-tool` with the tokens. A call that needs a
 * new authorization (a 403 asking for more scope, a changed authorization server) fails as CALL_SIGN_IN_REQUIRED;
 * then it signs in again and repeats, at most twice.
 */
async function oauthScenario(): Promise<void> {
  const pre = context as { client_id?: string; client_secret?: string; issuer?: string };
  const store = memoryOAuthStateStore(
    pre.client_id === undefined
      ? undefined
      : {
          client: {
            client_id: pre.client_id,
            ...(pre.client_secret === undefined ? {} : { client_secret: pre.client_secret }),
            ...(pre.issuer === undefined ? {} : { issuer: pre.issuer }),
          },
        },
  );
  for (let round = 0; ; round++) {
    const auth = await signIn({
      serverUrl,
      store,
      clientName: 'recourse conformance client',
      clientMetadataUrl: CLIENT_METADATA_URL,
      timeoutMs: 15_000,
      onAuthorizationUrl: approve,
    });
    const client = createRecourseClient({
      target: { url: serverUrl, auth },
      name: 'conformance-mock',
      protocol: modern ? 'modern' : 'legacy',
      timeoutMs: 20_000,
      retry: { maxAttempts: 1 },
      breaker: false,
    });
    try {
      await client.listTools();
      await call(client, 'test-tool');
      return;
    } catch (error) {
      const again =
        (isRecourseCallError(error) && error.code === 'CALL_SIGN_IN_REQUIRED') ||
        (error instanceof Error && error.name === 'UnauthorizedError');
      if (!again || round >= 2) throw error;
    } finally {
      await client.close();
    }
  }
}

const run =
  scenarios[scenario] ??
  (GENERIC.includes(scenario)
    ? scenarios['generic']
    : scenario.startsWith('auth/')
      ? oauthScenario
      : undefined);
if (run === undefined) {
  console.error(
    `Unknown scenario "${scenario}"; known: ${[...Object.keys(scenarios), ...GENERIC].join(', ')}.`,
  );
  process.exit(2);
}
try {
  await run();
  process.exit(0);
} catch (error) {
  console.error(`Scenario ${scenario} failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
