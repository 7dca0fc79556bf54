/**
 * The floor: a plain `node:http` server (or newline-delimited JSON over stdin/stdout) that answers every
 * JSON-RPC request with one fixed tool result. Nothing an MCP server must do happens here.
 *
 * Usage: `node --import tsx bench/servers/floor.ts http|stdio`. The HTTP mode prints `READY <url>`.
 *
 * @packageDocumentation
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';

const RESULT = { content: [{ type: 'text', text: 'T-1 Benchmark task' }] };

function answer(text: string): string {
  let id: unknown = null;
  try {
    id = (JSON.parse(text) as { id?: unknown }).id ?? null;
  } catch {
    id = null;
  }
  return JSON.stringify({ jsonrpc: '2.0', id, result: RESULT });
}

if (process.argv[2] === 'stdio') {
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line.trim() !== '') process.stdout.write(`${answer(line)}\n`);
  });
  lines.on('close', () => process.exit(0));
} else {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = answer(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`READY http://127.0.0.1:${String(port)}/mcp\n`);
  });
}
// A normal exit on SIGTERM, so that `--cpu-prof` writes its profile.
process.once('SIGTERM', () => process.exit(0));
