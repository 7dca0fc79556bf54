/**
 * The clients the benchmark drives a server with, behind one small interface: a keep-alive `node:http` client
 * and a newline-delimited JSON pipe for the floor, the SDK v2 client, and `@recourse/client`. Every call checks
 * its answer (a success, or the expected `TASK_NOT_FOUND` failure), so a refused call can never pass for a fast one.
 *
 * @packageDocumentation
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createRecourseClient } from '@recourse/client';
import { serverArgs } from './server-process.ts';

/** Which era a client speaks: 2026-07-28 pinned, or the 2025 `initialize` handshake. */
export type Era = 'modern' | 'legacy';

/** What each call must answer. */
export type Expect = 'success' | 'not_found';

/** One tool call the benchmark repeats. */
export interface CallSpec {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly expect: Expect;
}

/** Where the server is: an HTTP URL (with a token), or a server script to spawn on stdio. */
export type Endpoint =
  | { readonly kind: 'http'; readonly url: string; readonly pid: number; readonly token?: string }
  | {
      readonly kind: 'stdio';
      readonly script: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      /** Node flags for the server process (e.g. `--expose-gc`). */
      readonly nodeFlags?: readonly string[];
    };

/** A connected client making one kind of call; `pid` is the server process (for its CPU and memory). */
export interface Caller {
  readonly pid: number;
  call(): Promise<void>;
  close(): Promise<void>;
}

/** An SDK caller can also make another call on the same connection. */
export interface SdkCaller extends Caller {
  callWith(spec: CallSpec): () => Promise<void>;
}

function checkResult(result: { isError?: unknown; _meta?: unknown }, spec: CallSpec, who: string): void {
  const failed = result.isError === true;
  if (spec.expect === 'success' && failed)
    throw new Error(`${who}: ${spec.tool} failed: ${JSON.stringify(result).slice(0, 300)}`);
  if (spec.expect === 'not_found') {
    const code = (result._meta as Record<string, { code?: string }> | undefined)?.['dev.recourse/failure']
      ?.code;
    if (!failed || code !== 'TASK_NOT_FOUND')
      throw new Error(`${who}: expected TASK_NOT_FOUND, got ${JSON.stringify(result).slice(0, 300)}`);
  }
}

function stdioTransport(endpoint: Extract<Endpoint, { kind: 'stdio' }>): StdioClientTransport {
  const [command, ...args] = [
    process.execPath,
    ...serverArgs(endpoint.script, ['stdio', ...endpoint.args], endpoint.nodeFlags),
  ];
  return new StdioClientTransport({
    command: command,
    args,
    env: { ...(process.env as Record<string, string>), ...endpoint.env },
    stderr: 'inherit',
  });
}

/** The SDK v2 client on `endpoint`, speaking `era`. */
export async function sdkCaller(endpoint: Endpoint, era: Era, spec: CallSpec): Promise<SdkCaller> {
  const client = new Client(
    { name: 'bench', version: '0.0.1' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  let pid: number;
  if (endpoint.kind === 'http') {
    const headers: Record<string, string> =
      endpoint.token === undefined ? {} : { authorization: `Bearer ${endpoint.token}` };
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers } }),
    );
    pid = endpoint.pid;
  } else {
    const transport = stdioTransport(endpoint);
    await client.connect(transport);
    pid = transport.pid!;
  }
  const callWith = (other: CallSpec) => async (): Promise<void> => {
    checkResult(await client.callTool({ name: other.tool, arguments: other.args }), other, 'sdk client');
  };
  return { pid, call: callWith(spec), callWith, close: () => client.close() };
}

/** `@recourse/client` on `endpoint`, speaking `era`, with its default policies (bulkhead 16, breaker, retry). */
export async function recourseCaller(endpoint: Endpoint, era: Era, spec: CallSpec): Promise<Caller> {
  let transport: StdioClientTransport | undefined;
  const client = createRecourseClient({
    name: 'bench',
    protocol: era,
    // A loaded machine can take many seconds to spawn a stdio server; the deadline costs nothing per call.
    timeoutMs: 120_000,
    target:
      endpoint.kind === 'http'
        ? { url: endpoint.url, ...(endpoint.token === undefined ? {} : { token: endpoint.token }) }
        : {
            transport: () => {
              transport = stdioTransport(endpoint);
              return transport;
            },
          },
  });
  const call = async (): Promise<void> => {
    const outcome = await client.tryCallTool(spec.tool, spec.args);
    if (outcome.ok) checkResult(outcome.value.result, spec, 'recourse client');
    else if (spec.expect !== 'not_found' || outcome.error.code !== 'CALL_TOOL_FAILED')
      throw new Error(`recourse client: ${spec.tool}: ${outcome.error.message}`);
  };
  await call(); // connects (and spawns the stdio server)
  return {
    pid: endpoint.kind === 'http' ? endpoint.pid : transport!.pid!,
    call,
    close: () => client.close(),
  };
}

function rpcBody(id: number, spec: CallSpec): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: spec.tool, arguments: spec.args },
  });
}

/** A keep-alive `node:http` client posting JSON-RPC to the floor server (up to 16 sockets). */
export function floorHttpCaller(url: string, pid: number, spec: CallSpec): Caller {
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  let id = 0;
  return {
    pid,
    call: () =>
      new Promise<void>((resolve, reject) => {
        id += 1;
        const body = rpcBody(id, spec);
        const req = request(
          url,
          {
            method: 'POST',
            agent,
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              if (res.statusCode === 200 && text.includes('"result"')) resolve();
              else reject(new Error(`floor answered ${String(res.statusCode)}: ${text.slice(0, 200)}`));
            });
          },
        );
        req.on('error', reject);
        req.end(body);
      }),
    close: () => {
      agent.destroy();
      return Promise.resolve();
    },
  };
}

/** Newline-delimited JSON-RPC over a pipe to the floor server's stdio mode. */
export function floorStdioCaller(spec: CallSpec): Caller {
  const child = spawn(process.execPath, serverArgs('floor.ts', ['stdio']), {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const pending = new Map<number, () => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    const { id } = JSON.parse(line) as { id: number };
    pending.get(id)?.();
    pending.delete(id);
  });
  let id = 0;
  return {
    pid: child.pid!,
    call: () =>
      new Promise<void>((resolve) => {
        id += 1;
        pending.set(id, resolve);
        child.stdin.write(`${rpcBody(id, spec)}\n`);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}
