/**
 * Smoke test with a real MCP client: the MCP Inspector CLI (`@modelcontextprotocol/inspector --cli`, pinned)
 * against the real board over HTTP, with a bearer token. Each case asserts the Inspector's documented exit code:
 * 0 OK, 3 AUTH_REQUIRED, 5 TOOL_ERROR (an `isError` result or an unknown tool).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoardServer, ensureOwner } from '@recourse/board';
import { startHttpHost, type HttpHost } from '@recourse/server';

const require = createRequire(import.meta.url);
const launcher = join(
  dirname(require.resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
);

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const work = mkdtempSync(join(tmpdir(), 'recourse-inspector-'));
let board: ReturnType<typeof createBoardServer>;
let http: HttpHost;
let token = '';

/** Runs `mcp-inspector --cli <url> …args` (JSON output, quiet) with its own HOME; killed after 30 s. */
function inspect(args: readonly string[], withToken = true): Promise<Run> {
  const auth = withToken ? ['--header', `Authorization: Bearer ${token}`] : ['--stored-auth-only'];
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [launcher, '--cli', http.url, ...auth, ...args, '--format', 'json', '-q'],
      {
        env: { ...process.env, HOME: join(work, 'home'), NO_COLOR: '1' },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function textOf(run: Run): string {
  const parsed = JSON.parse(run.stdout) as { result: { content: { type: string; text?: string }[] } };
  return parsed.result.content.map((item) => item.text ?? '').join('\n');
}

beforeAll(async () => {
  board = createBoardServer({ dataDir: join(work, 'data'), logger: pino({ enabled: false }) });
  const owner = await ensureOwner(board.services);
  token = owner?.token ?? '';
  http = await startHttpHost({
    factory: board.server.createMcpServer,
    canceller: board.server.inflight,
    verifier: board.verifier,
  });
});

afterAll(async () => {
  await http.close();
  await board.close();
  rmSync(work, { recursive: true, force: true });
});

describe('MCP Inspector CLI against the board', { timeout: 60_000 }, () => {
  it('lists the board tools (exit 0)', async () => {
    const run = await inspect(['--method', 'tools/list']);
    expect(run.code).toBe(0);
    const names = (JSON.parse(run.stdout) as { result: { tools: { name: string; description: string }[] } })
      .result.tools;
    expect(names.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['tasks_create', 'tasks_get', 'whoami']),
    );
    for (const tool of names) expect(tool.description.length).toBeGreaterThan(0);
  });

  it('calls whoami and gets the caller back (exit 0), on both protocol eras', async () => {
    for (const era of ['legacy', 'modern']) {
      const run = await inspect(['--protocol-era', era, '--method', 'tools/call', '--tool-name', 'whoami']);
      expect(run.code, run.stderr).toBe(0);
      expect(textOf(run)).toContain('role owner');
    }
  });

  it('creates a task (exit 0) that tasks_get then finds', async () => {
    const created = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'tasks_create',
      '--tool-args-json',
      '{"title":"Inspector smoke task"}',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const ref = /T-\d+/.exec(textOf(created))?.[0] ?? '';
    expect(ref).not.toBe('');
    const read = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'tasks_get',
      '--tool-args-json',
      JSON.stringify({ ref }),
    ]);
    expect(read.code).toBe(0);
    expect(textOf(read)).toContain('Inspector smoke task');
  });

  it('reports an isError result as a tool error (exit 5) with the failure text', async () => {
    const run = await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'tasks_get',
      '--tool-args-json',
      '{"ref":"T-999"}',
    ]);
    expect(run.code).toBe(5);
    const result = (JSON.parse(run.stdout) as { result: { isError?: boolean } }).result;
    expect(result.isError).toBe(true);
    expect(textOf(run)).toMatch(/No task T-999.*Nothing was changed/s);
    expect(run.stderr).toContain('tool_is_error');
  });

  it('reports an unknown tool as tool_not_found (exit 5)', async () => {
    const run = await inspect(['--method', 'tools/call', '--tool-name', 'no_such_tool']);
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('tool_not_found');
  });

  it('without a token gets auth_required (exit 3) and the 401 message', async () => {
    const run = await inspect(['--method', 'tools/list'], false);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('auth_required');
    expect(run.stderr).toContain('No bearer token was sent');
  });
});
