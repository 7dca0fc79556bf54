/**
 * An MCP server built with fastmcp, the most used framework on top of the v1 SDK, over stateless Streamable
 * HTTP, stateful Streamable HTTP (sessions) or stdio, with the same tools as `v1-server.ts` except `dropping` and
 * `throttled` (fastmcp owns its HTTP server, so neither a tool nor a limiter in front can reach the connection),
 * plus `slow_capped`, a slow tool under fastmcp's own 100 ms `timeoutMs`.
 *
 * Run: `node --import tsx test/interop/fastmcp-server.ts stateless|stateful|stdio`. Over HTTP it listens on a
 * free loopback port and prints `READY <url>` on stdout.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { FastMCP } from 'fastmcp';
import { z } from 'zod';
import { FAILURE_CASES, failLike } from './real-failures.ts';
import {
  FLAKY_TEXT,
  NAME_SCHEMA,
  flakyShouldFail,
  greeting,
  recordText,
  runProgressing,
  runSlow,
  transportArg,
} from './interop-record.ts';

const server = new FastMCP({ name: 'interop-fastmcp', version: '1.0.0' });

server.addTool({
  name: 'slow',
  description: 'Waits ms milliseconds, then answers done.',
  parameters: z.object({ ms: z.number().int().min(0), tag: z.string() }),
  annotations: { readOnlyHint: true },
  execute: async ({ ms, tag }, context) => ((await runSlow(tag, ms, context.signal)) ? 'done' : 'stopped'),
});
server.addTool({
  name: 'progressing',
  description: 'Waits ms milliseconds, reporting progress every everyMs, then answers done.',
  parameters: z.object({ ms: z.number().int().min(0), everyMs: z.number().int().min(10), tag: z.string() }),
  annotations: { readOnlyHint: true },
  execute: async ({ ms, everyMs, tag }, context) =>
    (await runProgressing(tag, ms, everyMs, context.signal, (progress, total) =>
      context.reportProgress({ progress, total }),
    ))
      ? 'done'
      : 'stopped',
});
server.addTool({
  name: 'flaky',
  description: 'Fails transiently `failures` times for a key, then answers ok.',
  parameters: z.object({ key: z.string(), failures: z.number().int().min(0) }),
  annotations: { readOnlyHint: true },
  execute: ({ key, failures }) =>
    Promise.resolve(
      flakyShouldFail(key, failures)
        ? { isError: true, content: [{ type: 'text' as const, text: FLAKY_TEXT }] }
        : 'ok',
    ),
});
server.addTool({
  name: 'flaky_write',
  description: 'Like flaky, but a write: no read-only or idempotent hint.',
  parameters: z.object({ key: z.string(), failures: z.number().int().min(0) }),
  execute: ({ key, failures }) =>
    Promise.resolve(
      flakyShouldFail(key, failures)
        ? { isError: true, content: [{ type: 'text' as const, text: FLAKY_TEXT }] }
        : 'ok',
    ),
});
server.addTool({
  name: 'throwing',
  description: 'Throws an Error with the given message.',
  parameters: z.object({ message: z.string() }),
  execute: ({ message }) => Promise.reject(new Error(message)),
});
server.addTool({
  name: 'slow_capped',
  description: 'Waits ms milliseconds under a 100 ms fastmcp timeoutMs.',
  parameters: z.object({ ms: z.number().int().min(0), tag: z.string() }),
  timeoutMs: 100,
  execute: async ({ ms, tag }, context) => ((await runSlow(tag, ms, context.signal)) ? 'done' : 'stopped'),
});
server.addTool({
  name: 'fails_like',
  description: 'Runs an operation that fails in the field and throws what it threw.',
  parameters: z.object({ how: z.enum(FAILURE_CASES) }),
  execute: ({ how }) => failLike(how),
});
server.addTool({
  name: 'ask',
  description: 'Asks the client for a name (elicitation) and greets it, or says what the client answered.',
  parameters: z.object({ question: z.string() }),
  execute: async ({ question }, context) =>
    greeting(await context.elicit({ mode: 'form', message: question, requestedSchema: NAME_SCHEMA })),
});
server.addTool({
  name: 'interop_log',
  description: 'The record of slow and flaky runs.',
  execute: () => Promise.resolve(recordText()),
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const mode = transportArg();
if (mode === 'stdio') {
  await server.start({ transportType: 'stdio' });
} else {
  const port = await freePort();
  await server.start({
    transportType: 'httpStream',
    httpStream: { host: '127.0.0.1', port, endpoint: '/mcp', stateless: mode === 'stateless' },
  });
  process.stdout.write(`READY http://127.0.0.1:${String(port)}/mcp\n`);
}
