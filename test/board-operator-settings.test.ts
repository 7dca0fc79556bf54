/**
 * Operator settings on the real `recourse-board serve` binary: a limit set by flag or environment applies over
 * HTTP, a bad value exits 2 with one line naming the flag and the accepted range, a too-deep body is refused
 * with 400 / -32600, and a public name behind a reverse proxy is served.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { rawRequest } from '../packages/server/src/http/testing/raw-request.ts';
import { failureMetaOf, textOf } from '../apps/board/src/testing/board-host.ts';
import { CLI_ENV, startServe } from '../apps/board/src/testing/serve-process.ts';
import { BOARD_BIN } from '../apps/board/src/testing/stdio-client.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'recourse-settings-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tokenOf(lines: string[]): string {
  return lines.find((l) => /^rbt_/.test(l)) ?? '';
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('recourse-board serve operator settings', () => {
  it('applies --rate-limit: the fourth call in the window is refused naming the limit of 3', async () => {
    const serve = await startServe(tempDir(), true, ['--rate-limit', '3', '--rate-limit-window', '1m']);
    const client = new Client({ name: 'settings', version: '0.0.1' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(serve.url), {
          requestInit: { headers: { authorization: `Bearer ${tokenOf(serve.lines())}` } },
        }),
      );
      const results = [];
      for (let i = 0; i < 4; i += 1) results.push(await client.callTool({ name: 'whoami', arguments: {} }));
      expect(results.slice(0, 3).every((r) => r.isError !== true)).toBe(true);
      expect(failureMetaOf(results[3])).toMatchObject({ category: 'rate_limit', code: 'RATE_LIMITED' });
      expect(textOf(results[3])).toContain('may make 3 tool calls a minute');
    } finally {
      await client.close();
      await serve.stop();
    }
  });

  it('takes a limit from the environment (RECOURSE_MAX_JSON_DEPTH) and refuses a deeper body with 400 / -32600', async () => {
    const serve = await startServe(tempDir(), true, [], { ...CLI_ENV, RECOURSE_MAX_JSON_DEPTH: '16' });
    try {
      const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
      const call = (depth: number) =>
        rawRequest(serve.url, {
          headers: { ...JSON_HEADERS, authorization: `Bearer ${tokenOf(serve.lines())}` },
          body: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"whoami","arguments":{"x":${nested(depth)}}}}`,
        });
      const deep = await call(20);
      expect(deep.status).toBe(400);
      const body = JSON.parse(deep.text) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32600);
      expect(body.error.message).toContain('more than 16 levels deep');
      const huge = await call(100_000);
      expect(huge.status).toBe(400);
      const shallow = await call(2);
      expect(shallow.status).not.toBe(400);
    } finally {
      await serve.stop();
    }
  });

  it('serves a public name behind a reverse proxy with --public-url, and still refuses other hosts', async () => {
    const serve = await startServe(tempDir(), true, ['--public-url', 'https://board.example.com/mcp']);
    try {
      const metadataUrl = new URL('/.well-known/oauth-protected-resource/mcp', serve.url).href;
      const proxied = await rawRequest(metadataUrl, {
        method: 'GET',
        headers: { host: 'board.example.com', origin: 'https://board.example.com' },
      });
      expect(proxied.status).toBe(200);
      expect((JSON.parse(proxied.text) as { resource: string }).resource).toBe(
        'https://board.example.com/mcp',
      );
      const other = await rawRequest(metadataUrl, { method: 'GET', headers: { host: 'evil.example.net' } });
      expect(other.status).toBe(403);
    } finally {
      await serve.stop();
    }
  });

  it.each([
    [['--rate-limit', '0'], '--rate-limit is "0"; expected a whole number from 1 to 1000000.'],
    [['--deadline', 'soon'], '--deadline is "soon"; expected a duration like 500ms, 10s or 2m'],
    [['--flood-window', '0s'], '--flood-window is "0s"; expected a duration'],
  ])('exits 2 on %j with one line naming the flag and the accepted range', (flags, text) => {
    const result = spawnSync(
      process.execPath,
      [BOARD_BIN, 'serve', '--port', '0', '--data-dir', tempDir(), ...flags],
      { encoding: 'utf8', timeout: 20_000, env: CLI_ENV },
    );
    expect(result.status).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(text);
    expect(result.stdout).toBe('');
  });
});
