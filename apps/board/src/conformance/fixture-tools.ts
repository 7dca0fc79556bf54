/**
 * The conformance suite's 2025-era tool fixtures (content types, logging, progress, errors, sampling,
 * elicitation, SSE reconnection), served as raw tools beside the board's own tools.
 *
 * @packageDocumentation
 */
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import type { RawTool } from '@recourse/server';
import { FIXTURE_PNG_BASE64, FIXTURE_WAV_BASE64 } from './fixture-media.ts';

const NO_ARGUMENTS = { type: 'object', properties: {} } as const;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

function fixture(name: string, description: string, handler: RawTool['handler']): RawTool {
  return { name, description, inputSchema: NO_ARGUMENTS, handler };
}

function stringArgument(name: string, description: string): RawTool['inputSchema'] {
  return { type: 'object', properties: { [name]: { type: 'string', description } }, required: [name] };
}

/** Sends a 2025-era `elicitation/create` and describes the answer (or why there was none) as text. */
async function elicit(ctx: ServerContext, params: Record<string, unknown>): Promise<CallToolResult> {
  try {
    const answer = (await ctx.mcpReq.send({ method: 'elicitation/create', params } as never)) as {
      action?: string;
      content?: unknown;
    };
    return text(
      `Elicitation answered: action=${String(answer.action)}, content=${JSON.stringify(answer.content ?? {})}`,
    );
  } catch (error) {
    return {
      ...text(`Elicitation failed: ${error instanceof Error ? error.message : String(error)}`),
      isError: true,
    };
  }
}

const DEFAULTS_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Name', default: 'John Doe' },
    age: { type: 'integer', description: 'Age', default: 30 },
    score: { type: 'number', description: 'Score', default: 95.5 },
    status: {
      type: 'string',
      description: 'Status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verified', default: true },
  },
  required: [],
};

const choices = (prefix: string, titles: readonly string[]): { const: string; title: string }[] =>
  titles.map((title, index) => ({ const: `${prefix}${index + 1}`, title }));

const ENUMS_SCHEMA = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', description: 'Pick one', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      description: 'Pick one (titled)',
      oneOf: choices('value', ['One', 'Two', 'Three']),
    },
    legacyEnum: {
      type: 'string',
      description: 'Pick one (legacy)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['One', 'Two', 'Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Pick several',
      minItems: 1,
      maxItems: 3,
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Pick several (titled)',
      minItems: 1,
      maxItems: 3,
      items: { anyOf: choices('value', ['One', 'Two', 'Three']) },
    },
  },
  required: [],
};

/** The 2025-era tool fixtures by the names the conformance scenarios call. */
export function legacyFixtureTools(): RawTool[] {
  return [
    fixture('test_simple_text', 'Conformance fixture: answers one text item.', () =>
      text('This is a simple text response for testing.'),
    ),
    fixture('test_image_content', 'Conformance fixture: answers one PNG image item.', () => ({
      content: [{ type: 'image', data: FIXTURE_PNG_BASE64, mimeType: 'image/png' }],
    })),
    fixture('test_audio_content', 'Conformance fixture: answers one WAV audio item.', () => ({
      content: [{ type: 'audio', data: FIXTURE_WAV_BASE64, mimeType: 'audio/wav' }],
    })),
    fixture('test_embedded_resource', 'Conformance fixture: answers one embedded text resource.', () => ({
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'Embedded fixture text.',
          },
        },
      ],
    })),
    fixture(
      'test_multiple_content_types',
      'Conformance fixture: answers text, an image and a resource.',
      () => ({
        content: [
          { type: 'text', text: 'Three kinds of content follow.' },
          { type: 'image', data: FIXTURE_PNG_BASE64, mimeType: 'image/png' },
          {
            type: 'resource',
            resource: {
              uri: 'test://mixed-content-resource',
              mimeType: 'application/json',
              text: '{"fixture":true}',
            },
          },
        ],
      }),
    ),
    fixture(
      'test_tool_with_logging',
      'Conformance fixture: sends three log notifications while it runs.',
      async (_args, ctx) => {
        for (const step of ['started', 'working', 'finished']) {
          await ctx.mcpReq.notify({
            method: 'notifications/message',
            params: { level: 'info', data: `Fixture ${step}` },
          });
          if (step !== 'finished') await sleep(50);
        }
        return text('Logged three messages.');
      },
    ),
    fixture(
      'test_tool_with_progress',
      'Conformance fixture: reports progress 0, 50 and 100 of 100.',
      async (_args, ctx) => {
        const token = ctx.mcpReq._meta?.progressToken;
        if (token !== undefined) {
          for (const progress of [0, 50, 100]) {
            await ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken: token, progress, total: 100 },
            });
            if (progress < 100) await sleep(50);
          }
        }
        return text(`Progress reported for token ${String(token)}.`);
      },
    ),
    fixture('test_error_handling', 'Conformance fixture: always fails with a tool execution error.', () => ({
      ...text(
        'The fixture test_error_handling always fails, on purpose. Nothing was changed; retrying will fail again.',
      ),
      isError: true,
    })),
    {
      name: 'test_sampling',
      description: 'Conformance fixture: asks the client to sample a reply to `prompt` (2025 era).',
      inputSchema: stringArgument('prompt', 'Text sent to the client for sampling'),
      handler: async (args, ctx) => {
        const prompt = typeof args['prompt'] === 'string' ? args['prompt'] : '';
        const answer = (await ctx.mcpReq.send({
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 },
        } as never)) as { content?: { text?: string } };
        return text(`Sampled reply: ${answer.content?.text ?? '(no text)'}`);
      },
    },
    {
      name: 'test_elicitation',
      description: 'Conformance fixture: asks the user for a response with `message` (2025 era).',
      inputSchema: stringArgument('message', 'Text shown to the user'),
      handler: (args, ctx) =>
        elicit(ctx, {
          message: typeof args['message'] === 'string' ? args['message'] : '',
          requestedSchema: {
            type: 'object',
            properties: { response: { type: 'string' } },
            required: ['response'],
          },
        }),
    },
    fixture(
      'test_elicitation_sep1034_defaults',
      'Conformance fixture: elicits a form whose fields have defaults.',
      (_a, ctx) =>
        elicit(ctx, { message: 'Check the fields; each has a default.', requestedSchema: DEFAULTS_SCHEMA }),
    ),
    fixture(
      'test_elicitation_sep1330_enums',
      'Conformance fixture: elicits five kinds of enum field.',
      (_a, ctx) => elicit(ctx, { message: 'Pick from the lists.', requestedSchema: ENUMS_SCHEMA }),
    ),
    fixture(
      'test_reconnection',
      'Conformance fixture: closes its SSE stream mid-call, then answers (SEP-1699).',
      async (_a, ctx) => {
        ctx.http?.closeSSE?.();
        await sleep(100);
        return text('Answered after the stream was closed and resumed.');
      },
    ),
  ];
}
