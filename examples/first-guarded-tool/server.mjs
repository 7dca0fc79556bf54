// A complete MCP server with one guarded tool: notes_read returns a note, or fails with not_found in words a
// model can act on. Run it over stdio (the default) or HTTP: `node server.mjs` / `node server.mjs http`.
import * as z from 'zod';
import { notFound } from '@recourse/core';
import { createRecourseServer, defineTool, startHttpHost, startStdioHost } from '@recourse/server';

const notes = new Map([
  ['welcome', 'Hello from your first guarded tool.'],
  ['todo', 'Write a second tool.'],
]);

const notesRead = defineTool({
  name: 'notes_read',
  description: 'Returns the text of one note by its name, e.g. "welcome".',
  input: z.strictObject({ name: z.string().min(1).describe('The name of the note, e.g. welcome.') }),
  annotations: { readOnlyHint: true },
  handler: async ({ name }) => {
    const text = notes.get(name);
    if (text === undefined)
      throw notFound({
        code: 'NOTE_NOT_FOUND',
        message: `No note named "${name}".`,
        expected: `one of: ${[...notes.keys()].join(', ')}`,
        next: 'Call notes_read again with one of those names.',
      });
    return { text };
  },
});

const server = createRecourseServer({ name: 'notes', version: '1.0.0', tools: [notesRead] });

if (process.argv[2] === 'http') {
  const host = await startHttpHost({
    factory: server.createMcpServer,
    canceller: server.inflight,
    port: Number(process.env.PORT ?? 3000),
  });
  console.error(`notes: serving MCP at ${host.url}`); // stdout stays free for the protocol on stdio
} else {
  await startStdioHost({ factory: server.createMcpServer });
}
