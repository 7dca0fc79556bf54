/**
 * The conformance suite's 2026-07-28 tool fixtures: multi-round-trip (input-required) results with signed
 * `requestState`, the capability and streaming probes of `server-stateless`, a tool with an `x-mcp-header`
 * parameter and a JSON Schema 2020-12 tool.
 *
 * @packageDocumentation
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type CallToolResult,
  type InputRequest,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { RawTool } from '@recourse/server';

const NO_ARGUMENTS = { type: 'object', properties: {} } as const;
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

/** A form elicitation asking for one string or boolean field. */
export function askField(
  message: string,
  field: string,
  type: 'string' | 'boolean' = 'string',
): InputRequest {
  const property = type === 'string' ? { type: 'string' as const } : { type: 'boolean' as const };
  return inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { [field]: property }, required: [field] },
  });
}

function answered(ctx: ServerContext, key: string): Record<string, unknown> | undefined {
  const view = inputResponse(ctx.mcpReq.inputResponses, key);
  return view.kind === 'elicit' && view.action === 'accept' ? (view.content ?? {}) : undefined;
}

const has = (ctx: ServerContext, key: string): boolean =>
  inputResponse(ctx.mcpReq.inputResponses, key).kind !== 'missing';

function fixture(name: string, description: string, handler: RawTool['handler']): RawTool {
  return { name, description, inputSchema: NO_ARGUMENTS, handler };
}

interface RoundState {
  readonly tool: string;
  readonly round: number;
}

/** The input-required tool fixtures; `codec` signs and (through the server's `requestState` hook) verifies state. */
export function inputRequiredFixtureTools(codec: RequestStateCodec<RoundState>): RawTool[] {
  const state = (ctx: ServerContext): RoundState | undefined => ctx.mcpReq.requestState<RoundState>();
  return [
    fixture(
      'test_input_required_result_elicitation',
      'Conformance fixture: asks for a name, then greets it.',
      (_a, ctx) => {
        const content = answered(ctx, 'user_name');
        if (typeof content?.['name'] !== 'string')
          return inputRequired({ inputRequests: { user_name: askField('What is your name?', 'name') } });
        return text(`Hello, ${content['name']}!`);
      },
    ),
    fixture(
      'test_input_required_result_sampling',
      'Conformance fixture: asks the client to sample an answer.',
      (_a, ctx) => {
        const view = inputResponse(ctx.mcpReq.inputResponses, 'capital_question');
        if (view.kind !== 'sampling') {
          const request = inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
            maxTokens: 100,
          });
          return inputRequired({ inputRequests: { capital_question: request } });
        }
        const content = view.result.content;
        return text(
          `Sampled: ${!Array.isArray(content) && content.type === 'text' ? content.text : '(no text)'}`,
        );
      },
    ),
    fixture(
      'test_input_required_result_list_roots',
      "Conformance fixture: asks for the client's roots.",
      (_a, ctx) => {
        const view = inputResponse(ctx.mcpReq.inputResponses, 'client_roots');
        if (view.kind !== 'roots')
          return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
        return text(`Roots: ${view.roots.map((root) => root.uri).join(', ') || '(none)'}`);
      },
    ),
    fixture(
      'test_input_required_result_request_state',
      'Conformance fixture: round-trips signed requestState.',
      async (_a, ctx) => {
        const echoed = state(ctx);
        if (echoed?.tool === 'request_state' && has(ctx, 'confirm'))
          return text('state-ok: the requestState came back intact.');
        return inputRequired({
          inputRequests: { confirm: askField('Please confirm', 'ok', 'boolean') },
          requestState: await codec.mint({ tool: 'request_state', round: 1 }),
        });
      },
    ),
    fixture(
      'test_input_required_result_multiple_inputs',
      'Conformance fixture: asks for three inputs at once.',
      async (_a, ctx) => {
        const keys = ['user_name', 'greeting', 'client_roots'];
        if (state(ctx)?.tool === 'multiple_inputs' && keys.every((key) => has(ctx, key)))
          return text('All three inputs arrived.');
        return inputRequired({
          inputRequests: {
            user_name: askField('What is your name?', 'name'),
            greeting: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
              maxTokens: 50,
            }),
            client_roots: inputRequired.listRoots(),
          },
          requestState: await codec.mint({ tool: 'multiple_inputs', round: 1 }),
        });
      },
    ),
    fixture(
      'test_input_required_result_multi_round',
      'Conformance fixture: asks twice, one question per round.',
      async (_a, ctx) => {
        const round = state(ctx)?.tool === 'multi_round' ? (state(ctx)?.round ?? 0) : 0;
        if (round === 1 && answered(ctx, 'step1') !== undefined)
          return inputRequired({
            inputRequests: { step2: askField('Step 2: What is your favorite color?', 'color') },
            requestState: await codec.mint({ tool: 'multi_round', round: 2 }),
          });
        if (round === 2 && answered(ctx, 'step2') !== undefined) return text('Both rounds answered.');
        return inputRequired({
          inputRequests: { step1: askField('Step 1: What is your name?', 'name') },
          requestState: await codec.mint({ tool: 'multi_round', round: 1 }),
        });
      },
    ),
    fixture(
      'test_input_required_result_tampered_state',
      'Conformance fixture: refuses requestState it did not sign.',
      async (_a, ctx) => {
        if (state(ctx)?.tool === 'tampered_state' && has(ctx, 'confirm'))
          return text('The signed state came back intact.');
        return inputRequired({
          inputRequests: { confirm: askField('Please confirm', 'ok', 'boolean') },
          requestState: await codec.mint({ tool: 'tampered_state', round: 1 }),
        });
      },
    ),
    fixture(
      'test_input_required_result_capabilities',
      'Conformance fixture: asks only for what the client supports.',
      (_a, ctx) => {
        // On 2026-07-28 the SDK lifts the per-request envelope out of `_meta` into `envelope`.
        const envelope = (ctx.mcpReq.envelope ?? {}) as Record<string, unknown>;
        const declared = (envelope[CLIENT_CAPABILITIES_META_KEY] ?? {}) as Record<string, unknown>;
        const requests: Record<string, InputRequest> = {};
        if (declared['sampling'] !== undefined)
          requests['sample'] = inputRequired.createMessage({
            messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
            maxTokens: 20,
          });
        if (declared['elicitation'] !== undefined)
          requests['confirm'] = askField('Please confirm', 'ok', 'boolean');
        if (Object.keys(requests).length === 0 || Object.keys(requests).every((key) => has(ctx, key)))
          return text('Nothing more is needed.');
        return inputRequired({ inputRequests: requests });
      },
    ),
    fixture(
      'test_missing_capability',
      'Conformance fixture: needs sampling, so clients without it are refused (-32021).',
      () =>
        inputRequired({
          inputRequests: {
            sample: inputRequired.createMessage({
              messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
              maxTokens: 10,
            }),
          },
        }),
    ),
    fixture(
      'test_streaming_elicitation',
      'Conformance fixture: asks for input through an input-required result.',
      async (_a, ctx) => {
        const token = ctx.mcpReq._meta?.progressToken;
        if (token !== undefined)
          await ctx.mcpReq.notify({
            method: 'notifications/progress',
            params: { progressToken: token, progress: 1 },
          });
        if (answered(ctx, 'answer') !== undefined) return text('Thanks for the answer.');
        return inputRequired({ inputRequests: { answer: askField('Anything to add?', 'answer') } });
      },
    ),
    fixture(
      'test_logging_tool',
      'Conformance fixture: logs through the request log, which the client may silence.',
      async (_a, ctx) => {
        await ctx.mcpReq.log('info', 'test_logging_tool ran');
        return text('Logged one message at info.');
      },
    ),
  ];
}
