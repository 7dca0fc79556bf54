/**
 * Client mistakes at the JSON-RPC level, over real HTTP and the real `recourse-board stdio` binary: a request whose
 * params break the protocol's schema gets -32602 (or -32600 for a malformed request) with one sentence naming the
 * field, the value and what is accepted — never -32603, never a multi-line validation dump, never silence.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBoard, type TestBoard } from '../apps/board/src/testing/board-host.ts';
import { BOARD_BIN } from '../apps/board/src/testing/stdio-client.ts';
import { CLI_ENV } from '../apps/board/src/testing/serve-process.ts';

interface RpcError {
  readonly code: number;
  readonly message: string;
}
interface RpcAnswer {
  readonly id: unknown;
  readonly error?: RpcError;
  readonly result?: unknown;
}

const INIT = {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'mistakes', version: '0.0.1' },
};

/** The mistakes, each with the code and the field the answer must name. */
const MISTAKES = [
  {
    what: 'initialize with capabilities null',
    method: 'initialize',
    params: { ...INIT, capabilities: null },
    code: -32602,
    field: 'params.capabilities',
  },
  {
    what: 'initialize without clientInfo',
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {} },
    code: -32602,
    field: 'params.clientInfo',
  },
  {
    what: 'tools/call with arguments "x"',
    method: 'tools/call',
    params: { name: 'whoami', arguments: 'x' },
    code: -32602,
    field: 'params.arguments',
  },
  {
    what: 'tools/call with a numeric name',
    method: 'tools/call',
    params: { name: 5, arguments: {} },
    code: -32602,
    field: 'params.name',
  },
  {
    what: 'tools/list with a numeric cursor',
    method: 'tools/list',
    params: { cursor: 7 },
    code: -32602,
    field: 'params.cursor',
  },
] as const;

function expectOneSentence(error: RpcError | undefined, code: number, field: string): void {
  expect(error?.code).toBe(code);
  const message = error?.message ?? '';
  expect(message).toContain(`\`${field}\``);
  expect(message).toMatch(/; expected .+\.$/);
  expect(message).not.toContain('\n');
  expect(message).not.toMatch(/"code":|invalid_type|\[\s*\{/);
  expect(message.length).toBeLessThan(300);
}

describe('JSON-RPC client mistakes over HTTP', () => {
  let board: TestBoard;
  beforeAll(async () => {
    board = await startTestBoard();
  });
  afterAll(() => board.close());

  const post = async (body: unknown): Promise<{ status: number; answer: RpcAnswer }> => {
    const response = await fetch(board.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${board.tokens.viewer}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
    return { status: response.status, answer: JSON.parse(json) as RpcAnswer };
  };

  it.each(MISTAKES)('$what: $code naming $field', async ({ method, params, code, field }) => {
    const { status, answer } = await post({ jsonrpc: '2.0', id: 41, method, params });
    expect(status).not.toBe(500);
    expect(answer.id).toBe(41);
    expectOneSentence(answer.error, code, field);
  });

  it('still serves a well-formed call afterwards', async () => {
    const { answer } = await post({ jsonrpc: '2.0', id: 42, method: 'tools/list', params: {} });
    expect(answer.error).toBeUndefined();
  });
});

describe('JSON-RPC client mistakes over stdio', () => {
  let board: TestBoard;
  beforeAll(async () => {
    board = await startTestBoard();
  });
  afterAll(() => board.close());

  /** Sends `lines` to a fresh `recourse-board stdio` and collects the answers until every id got one (≤ 20 s). */
  async function exchange(
    lines: readonly unknown[],
    ids: readonly number[],
  ): Promise<Map<unknown, RpcAnswer>> {
    const child = spawn(process.execPath, [BOARD_BIN, 'stdio', '--data-dir', board.dataDir], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...CLI_ENV, RECOURSE_TOKEN: board.tokens.viewer },
    });
    const answers = new Map<unknown, RpcAnswer>();
    let buffer = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(new Error(`no answer to ids ${ids.filter((id) => !answers.has(id)).join(', ')} in 20 s`)),
          20_000,
        );
        child.stdout.on('data', (chunk: Buffer) => {
          buffer += chunk.toString('utf8');
          let newline = buffer.indexOf('\n');
          while (newline !== -1) {
            const answer = JSON.parse(buffer.slice(0, newline)) as RpcAnswer;
            answers.set(answer.id, answer);
            buffer = buffer.slice(newline + 1);
            newline = buffer.indexOf('\n');
          }
          if (ids.every((id) => answers.has(id))) {
            clearTimeout(timer);
            resolve();
          }
        });
        for (const line of lines) child.stdin.write(`${JSON.stringify(line)}\n`);
      });
    } finally {
      child.stdin.end();
      child.kill();
    }
    return answers;
  }

  it('answers every mistake with one sentence naming the field, and serves the session on', async () => {
    const lines: unknown[] = MISTAKES.filter((m) => m.method === 'initialize').map((m, i) => ({
      jsonrpc: '2.0',
      id: 100 + i,
      method: m.method,
      params: m.params,
    }));
    lines.push(
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: INIT },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    );
    MISTAKES.filter((m) => m.method !== 'initialize').forEach((m, i) =>
      lines.push({ jsonrpc: '2.0', id: 200 + i, method: m.method, params: m.params }),
    );
    lines.push(
      { jsonrpc: '2.0', id: 300, method: 'tools/call', params: 'zzz' },
      { jsonrpc: '2.0', id: 301, method: 'ping', params: { _meta: 5 } },
      { jsonrpc: '2.0', id: 302, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
    );
    const ids = lines.flatMap((l) => {
      const id = (l as { id?: unknown }).id;
      return typeof id === 'number' ? [id] : [];
    });
    const answers = await exchange(lines, ids);

    let initIndex = 0;
    let callIndex = 0;
    for (const mistake of MISTAKES) {
      const id = mistake.method === 'initialize' ? 100 + initIndex++ : 200 + callIndex++;
      expectOneSentence(answers.get(id)?.error, mistake.code, mistake.field);
    }
    expectOneSentence(answers.get(300)?.error, -32600, 'params');
    expectOneSentence(answers.get(301)?.error, -32600, 'params._meta');
    expect(answers.get(1)?.error).toBeUndefined();
    expect(JSON.stringify(answers.get(302)?.result)).toContain('viewer');
  });
});
