/**
 * The conformance suite's resources, prompts, logging level and completion fixtures, registered on each SDK
 * server through the Recourse server's `extend` hook (which must not register tools).
 *
 * @packageDocumentation
 */
import { inputRequired, ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { FIXTURE_PNG_BASE64 } from './fixture-media.ts';
import { askField } from './mrtr-tools.ts';

function registerResources(server: McpServer): void {
  server.registerResource(
    'static-text',
    'test://static-text',
    { description: 'Conformance fixture: a static text resource.', mimeType: 'text/plain' },
    () => ({
      contents: [
        {
          uri: 'test://static-text',
          mimeType: 'text/plain',
          text: 'This is the content of the static text resource.',
        },
      ],
    }),
  );
  server.registerResource(
    'static-binary',
    'test://static-binary',
    { description: 'Conformance fixture: a static PNG resource.', mimeType: 'image/png' },
    () => ({ contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: FIXTURE_PNG_BASE64 }] }),
  );
  server.registerResource(
    'watched-resource',
    'test://watched-resource',
    { description: 'Conformance fixture: a resource clients may subscribe to.', mimeType: 'text/plain' },
    () => ({
      contents: [
        { uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched fixture content.' },
      ],
    }),
  );
  server.registerResource(
    'template',
    new ResourceTemplate('test://template/{id}/data', { list: undefined }),
    {
      description: 'Conformance fixture: a template whose content names its id.',
      mimeType: 'application/json',
    },
    (uri, variables) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify({ id: variables['id'], fixture: true }),
        },
      ],
    }),
  );
  server.server.setRequestHandler('resources/subscribe', () => ({}));
  server.server.setRequestHandler('resources/unsubscribe', () => ({}));
}

function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'test_simple_prompt',
    { description: 'Conformance fixture: a prompt without arguments.' },
    () => ({
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple fixture prompt.' } }],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_arguments',
    {
      description: 'Conformance fixture: a prompt that repeats its two arguments.',
      argsSchema: z.object({
        arg1: z.string().describe('First argument'),
        arg2: z.string().describe('Second argument'),
      }),
    },
    ({ arg1, arg2 }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Arguments: arg1=${arg1}, arg2=${arg2}` } }],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'Conformance fixture: a prompt embedding the resource `resourceUri`.',
      argsSchema: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
    },
    ({ resourceUri }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded text.' },
          },
        },
      ],
    }),
  );
  server.registerPrompt(
    'test_prompt_with_image',
    { description: 'Conformance fixture: a prompt with an image.' },
    () => ({
      messages: [
        { role: 'user', content: { type: 'image', data: FIXTURE_PNG_BASE64, mimeType: 'image/png' } },
      ],
    }),
  );
  server.registerPrompt(
    'test_input_required_result_prompt',
    { description: 'Conformance fixture: a prompt that first asks the user for context (2026-07-28).' },
    (ctx) => {
      const view = ctx.mcpReq.inputResponses?.['user_context'] as
        { action?: string; content?: { context?: unknown } } | undefined;
      if (view?.action !== 'accept')
        return inputRequired({
          inputRequests: { user_context: askField('What context should the prompt use?', 'context') },
        });
      return {
        messages: [
          { role: 'user', content: { type: 'text', text: `Context: ${String(view.content?.context)}` } },
        ],
      };
    },
  );
}

/**
 * Returns the `extend` hook of the conformance server: capabilities (logging, completions, resource
 * subscriptions, list-changed), the fixture resources and prompts, `logging/setLevel` and `completion/complete`.
 */
export function conformanceExtension(): (server: McpServer) => void {
  return (server) => {
    server.server.registerCapabilities({
      logging: {},
      completions: {},
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      tools: { listChanged: true },
    });
    registerResources(server);
    registerPrompts(server);
    server.server.setRequestHandler('logging/setLevel', () => ({}));
    server.server.setRequestHandler('completion/complete', () => ({
      completion: { values: [], total: 0, hasMore: false },
    }));
  };
}
