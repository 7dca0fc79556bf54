/**
 * `npm run bench:server-cost`: what one client's `tools/call` request costs an SDK v2 server, next to another's.
 * The requests are the ones the clients really send: each client (the bare SDK v2 client; the same client given
 * `onprogress` and `resetTimeoutOnProgress`, as an SDK user asks for timeouts that progress extends; and
 * `@recourse/client`, compiled `dist/`) makes one call and the request it writes is kept. Those requests, each
 * with a fresh id (and progress token of the same type), are then written as lines into the bare SDK echo server
 * (`serveStdio` over an in-memory pair, in this process), 16 at a time, and the bytes allocated per request are
 * counted (V8's sampling heap profiler, with what garbage collection already freed). That count includes parsing
 * the line, as a stdio server does, and taking the answer, the same for every client. It hardly moves between
 * runs, where CPU time per request measured the same way moved by ±15 % on a shared machine; what the requests
 * cost the server in time shows in `npm run bench`, whose overhead rows give the server's CPU per call.
 *
 * Flags: `--calls N` requests counted per client, after as many unmeasured (default 4000).
 *
 * @packageDocumentation
 */
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { Client, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { createRecourseClient } from '@recourse/client';
import { callsInFlight } from './lib/cpu-rounds.ts';
import { echoServer, ReplayingTransport } from './lib/replaying-transport.ts';

const { values } = parseArgs({ options: { calls: { type: 'string' } } });
const calls = Number(values.calls ?? 4000);

/** Keeps the last `tools/call` request the client wrote. */
class Capturing extends ReplayingTransport {
  request: JSONRPCMessage | undefined;
  override send(message: JSONRPCMessage): Promise<void> {
    if ('method' in message && message.method === 'tools/call') this.request = message;
    return super.send(message);
  }
}

/** A `tools/call` request as JSON-RPC puts it; `progressToken` is what the clients differ in. */
interface CallRequest {
  id: number;
  params: { _meta?: { progressToken?: string | number } };
}

const args = { text: 'T-1 Benchmark task' };
async function sdkRequest(options: { onprogress?: () => void; resetTimeoutOnProgress?: boolean }) {
  const transport = new Capturing();
  const client = new Client(
    { name: 'bench', version: '0.0.1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  await client.callTool({ name: 'echo', arguments: args }, options);
  await client.close();
  return transport.request as unknown as CallRequest;
}
async function recourseRequest() {
  let transport: Capturing | undefined;
  const client = createRecourseClient({
    name: 'bench',
    protocol: 'modern',
    target: { transport: () => (transport = new Capturing()) },
  });
  await client.callTool('echo', args);
  await client.close();
  return transport!.request as unknown as CallRequest;
}
const requests: Record<string, CallRequest> = {
  'SDK client': await sdkRequest({}),
  'SDK client, onprogress': await sdkRequest({ onprogress: () => undefined, resetTimeoutOnProgress: true }),
  '@recourse/client': await recourseRequest(),
};
const tokenOf = (request: CallRequest): string | number | undefined => request.params._meta?.progressToken;

/** The server, and a sender that writes request lines into it and resolves when each is answered. */
const [ours, theirs] = InMemoryTransport.createLinkedPair();
serveStdio(echoServer, { transport: theirs });
const answered = new Map<number, () => void>();
ours.onmessage = (message) => {
  if ('id' in message && typeof message.id === 'number') answered.get(message.id)?.();
};
await ours.start();
let nextId = 1_000_000;
/** Sends `request` parsed from its line, as the server would, with a fresh id and token (of the same type). */
function freshSend(request: CallRequest): () => Promise<void> {
  const line = JSON.stringify(request);
  const token = tokenOf(request);
  return () => {
    const id = (nextId += 1);
    const message = JSON.parse(line) as CallRequest;
    message.id = id;
    if (token !== undefined)
      message.params._meta!.progressToken = typeof token === 'string' ? String(id) : id;
    return new Promise<void>((resolve) => {
      answered.set(id, () => (answered.delete(id), resolve()));
      void ours.send(message as unknown as JSONRPCMessage);
    });
  };
}
const variants = Object.fromEntries(Object.entries(requests).map(([name, r]) => [name, freshSend(r)]));

const session = new Session();
session.connect();
async function bytesPerRequest(send: () => Promise<void>): Promise<number> {
  await callsInFlight(send, calls, 16);
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  } as never);
  const made = await callsInFlight(send, calls, 16);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const sum = (node: typeof profile.head): number =>
    node.selfSize + node.children.reduce((t, c) => t + sum(c), 0);
  return sum(profile.head) / made;
}
const bytes = new Map<string, number>();
for (const [name, send] of Object.entries(variants)) bytes.set(name, await bytesPerRequest(send));
const base = bytes.get('SDK client')!;
console.log(
  `Bytes allocated per tools/call request in the SDK echo server (2026-07-28, stdio hosting, 16 in flight):`,
);
const kb = (v: number): string => (v / 1024).toFixed(1);
for (const [name, request] of Object.entries(requests)) {
  const token = tokenOf(request);
  const more = bytes.get(name)! - base;
  console.log(
    `${name.padEnd(24)} progress token ${(token === undefined ? 'none' : typeof token).padEnd(7)} ${kb(bytes.get(name)!)} KB (${more >= 0 ? '+' : ''}${kb(more)} KB)`,
  );
}
await ours.close();
