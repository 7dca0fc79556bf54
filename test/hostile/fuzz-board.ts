/**
 * The hostile-input fuzzing of the real board, shared by the short run in `npm test` (test/board-fuzz.test.ts)
 * and the long run in `npm run test:hostile` (test/hostile/fuzz-http.test.ts, fuzz-stdio.test.ts).
 *
 * Every answer is checked: an answer at all within 5 s, no HTTP 500, no JSON-RPC -32603, no internal detail in
 * its text, and the process still up; a good `whoami` must succeed every 25 messages and at the end. Every loop
 * is bounded by a count and by a time budget; running out of time before the count is a failure.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { pino } from 'pino';
import { createBoardServer } from '../../apps/board/src/board-server.ts';
import { startServeInstance, type ServeInstance } from '../../apps/board/src/testing/serve-instance.ts';
import { BOARD_BIN } from '../../apps/board/src/testing/stdio-client.ts';
import {
  hostileRequest,
  hostileText,
  deepBody,
  LEGACY,
  MODERN,
  MODERN_META,
  type HostileRequest,
} from './fuzz-arbitraries.ts';

/** The longest any answer may take. */
export const ANSWER_LIMIT_MS = 5_000;
/** A good `whoami` is sent after this many fuzzed messages. */
const PROBE_EVERY = 25;
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What a run measured. */
export interface FuzzFigures {
  sent: number;
  /** Answers by HTTP status (HTTP) or `answered`/`silent` (stdio). */
  byStatus: Record<string, number>;
  /** JSON-RPC error codes seen in answers, `result` for results, `isError` for failed tool results. */
  byCode: Record<string, number>;
  slowestMs: number;
  slowestInput: string;
  probes: number;
  elapsedMs: number;
  /** What the depth-100,000 messages got. */
  deepAnswers: string[];
  /** Every property violation, with the input (cut to 300 characters) and the answer. */
  violations: string[];
}

export function newFigures(): FuzzFigures {
  return {
    sent: 0,
    byStatus: {},
    byCode: {},
    slowestMs: 0,
    slowestInput: '',
    probes: 0,
    deepAnswers: [],
    elapsedMs: 0,
    violations: [],
  };
}

const bump = (record: Record<string, number>, key: string): void => {
  record[key] = (record[key] ?? 0) + 1;
};

const cut = (text: string, max = 300): string =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;

/** Internal details no answer may show, each with its name. */
const INTERNAL: readonly [string, RegExp][] = [
  ['stack frame', /\bat (?:\S+ \()?(?:file:\/\/)?(?:\/|[A-Z]:\\|node:)[^\s)]*:\d+/],
  ['repository path', new RegExp(REPO_ROOT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\/$/, ''))],
  ['node_modules path', /node_modules/],
  ['source path', /(?:apps|packages)\/[\w-]+\/(?:src|dist)\//],
  ['TypeError', /TypeError/],
  ['RangeError', /RangeError/],
  ['ReferenceError', /ReferenceError/],
  ['SyntaxError', /SyntaxError/],
  ['[object …]', /\[object \w+\]/],
  [
    'SQL',
    /\bSQLITE_\w+|\bSELECT\b[^"]{0,80}\bFROM\b|\bINSERT INTO\b|\bDELETE FROM\b|\bUPDATE \w+ SET\b|no such (?:table|column)/i,
  ],
];

/** The JSON-RPC messages in an answer's text: a JSON body, a batch, or SSE `data:` lines. */
function messagesOf(text: string): unknown[] {
  const chunks =
    text.trimStart().startsWith('event:') || text.trimStart().startsWith('data:') || text.includes('\ndata:')
      ? [...text.matchAll(/^data: ?(.*)$/gm)].map((m) => m[1] ?? '')
      : [text];
  const messages: unknown[] = [];
  for (const chunk of chunks) {
    if (chunk.trim() === '') continue;
    try {
      const parsed: unknown = JSON.parse(chunk);
      messages.push(...(Array.isArray(parsed) ? (parsed as unknown[]) : [parsed]));
    } catch {
      // Not JSON (a plain-text refusal): its text is still checked.
    }
  }
  return messages;
}

/** Checks one answer's text; records its codes and returns the violations. */
export function checkAnswer(text: string, figures: FuzzFigures): string[] {
  const violations: string[] = [];
  for (const [name, pattern] of INTERNAL) {
    const match = pattern.exec(text);
    if (match)
      violations.push(
        `internal detail (${name}): …${text.slice(Math.max(0, match.index - 60), match.index + 80)}…`,
      );
  }
  for (const message of messagesOf(text)) {
    const m = message as { error?: { code?: unknown }; result?: { isError?: unknown } };
    if (m.error !== undefined) {
      bump(figures.byCode, String(m.error.code));
      if (m.error.code === -32603) violations.push('JSON-RPC -32603');
    } else if (m.result !== undefined) {
      bump(figures.byCode, m.result.isError === true ? 'isError' : 'result');
    }
  }
  return violations;
}

/** A temporary SQLite data directory with an owner, and the owner's token. */
export async function seedBoard(): Promise<{ dataDir: string; token: string; remove(): void }> {
  const root = mkdtempSync(join(tmpdir(), 'recourse-fuzz-'));
  const dataDir = join(root, 'data');
  const seed = createBoardServer({ dataDir, logger: pino({ level: 'silent' }) });
  const owner = await seed.services.members.add({ name: 'Owner', kind: 'person', role: 'owner' });
  const { token } = await seed.services.tokens.create(owner.id);
  await seed.close();
  return { dataDir, token, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Whether a non-empty line is not JSON at all (the board must answer it with -32700). */
function notJson(line: string): boolean {
  if (line.trim() === '') return false;
  try {
    JSON.parse(line);
    return false;
  } catch {
    return true;
  }
}

/**
 * `count` values of `arbitrary`, generated 50 at a time as they are needed (seeds `seed`, `seed + 1`, …): the
 * huge strings of 20,000 messages would take gigabytes at once, and generating them all up front would stall the
 * event loop long enough for pooled keep-alive connections to go stale between two requests.
 */
function* samples<T>(arbitrary: fc.Arbitrary<T>, count: number, seed: number): Generator<T> {
  for (let batch = 0; batch * 50 < count; batch += 1) {
    yield* fc.sample(arbitrary, { numRuns: Math.min(50, count - batch * 50), seed: seed + batch });
  }
}

/** Options of a run. */
export interface FuzzOptions {
  readonly count: number;
  readonly budgetMs: number;
  readonly seed?: number;
}

/** The board flags of the HTTP run: limits that would otherwise answer most of the traffic with 429 (stdio gets the same rate limit). */
const SERVE_FLAGS = ['--rate-limit', '1000000', '--flood-limit', 'off'];

interface HttpAnswer {
  readonly status: number | string;
  readonly text: string;
  readonly ms: number;
  readonly session?: string | null;
}

async function send(url: string, headers: Record<string, string>, body: string): Promise<HttpAnswer> {
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(ANSWER_LIMIT_MS),
    });
    const text = await response.text();
    return {
      status: response.status,
      text,
      ms: performance.now() - started,
      session: response.headers.get('mcp-session-id'),
    };
  } catch (error) {
    const name = (error as Error).name;
    return {
      status:
        name === 'TimeoutError' ? 'timeout' : `network error (${String((error as Error).cause ?? error)})`,
      text: '',
      ms: performance.now() - started,
    };
  }
}

function headersOf(request: HostileRequest, token: string, session: string): Record<string, string> {
  const h = request.headers;
  const out: Record<string, string> = {};
  if (h.contentType !== undefined) out['content-type'] = h.contentType;
  if (h.accept !== undefined) out['accept'] = h.accept;
  if (h.protocolVersion !== undefined) out['mcp-protocol-version'] = h.protocolVersion;
  if (h.session !== undefined) out['mcp-session-id'] = h.session === 'valid' ? session : h.session;
  if (h.routing === 'match') Object.assign(out, routingHeaders(request.body));
  else if (h.routing !== undefined) Object.assign(out, { 'mcp-method': h.routing, 'mcp-name': h.routing });
  if (h.authorization !== undefined)
    out['authorization'] = h.authorization === 'owner' ? `Bearer ${token}` : h.authorization;
  return out;
}

/** The Mcp-Method and Mcp-Name headers a 2026-07-28 request with this body carries. */
function routingHeaders(body: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  const message = parsed as { method?: unknown; params?: { name?: unknown } } | null;
  const out: Record<string, string> = {};
  if (typeof message?.method === 'string' && /^[\x20-\x7e]*$/.test(message.method))
    out['mcp-method'] = message.method;
  const name = message?.params?.name;
  if (typeof name === 'string' && /^[\x20-\x7e]*$/.test(name)) out['mcp-name'] = name;
  return out;
}

/** A good `whoami` in the modern era; returns a violation or undefined. */
async function probeHttp(url: string, token: string): Promise<string | undefined> {
  const answer = await send(
    url,
    {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'whoami',
      authorization: `Bearer ${token}`,
    },
    JSON.stringify({
      jsonrpc: '2.0',
      id: 'probe',
      method: 'tools/call',
      params: { name: 'whoami', arguments: {}, _meta: MODERN_META },
    }),
  );
  const ok =
    answer.status === 200 &&
    messagesOf(answer.text).some((m) => {
      const result = (m as { result?: { isError?: unknown } }).result;
      return result !== undefined && result.isError !== true;
    });
  return ok ? undefined : `whoami probe failed: ${String(answer.status)} ${cut(answer.text)}`;
}

/** Opens a 2025-era session (initialize + initialized) and returns its id. */
async function openLegacySession(url: string, token: string): Promise<string> {
  const base = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    authorization: `Bearer ${token}`,
  };
  const init = await send(
    url,
    base,
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'fuzz', version: '0.0.1' } },
    }),
  );
  const session = init.session ?? '';
  await send(
    url,
    { ...base, 'mcp-session-id': session, 'mcp-protocol-version': LEGACY },
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  );
  return session;
}

/** Records one answer of the HTTP run. */
function recordHttp(figures: FuzzFigures, input: string, answer: HttpAnswer): void {
  bump(figures.byStatus, String(answer.status));
  if (answer.ms > figures.slowestMs) {
    figures.slowestMs = Math.round(answer.ms);
    figures.slowestInput = cut(input, 120);
  }
  const problems = checkAnswer(answer.text, figures);
  if (answer.status === 500) problems.push('HTTP 500');
  if (typeof answer.status === 'string') problems.push(`no answer: ${answer.status}`);
  for (const problem of problems)
    figures.violations.push(
      `${problem}; input: ${cut(input)}; answer: ${String(answer.status)} ${cut(answer.text)}`,
    );
}

/**
 * Sends `count` hostile HTTP requests, one after another, to a fresh `recourse-board serve` on SQLite, plus
 * the depth-100,000 message in both eras, and returns the figures.
 */
export async function fuzzHttp(options: FuzzOptions): Promise<FuzzFigures> {
  const board = await seedBoard();
  let serve: ServeInstance | undefined;
  const figures = newFigures();
  const started = performance.now();
  try {
    serve = await startServeInstance({
      args: ['--port', '0', '--data-dir', board.dataDir, ...SERVE_FLAGS],
      env: { DATABASE_URL: '' },
    });
    const { url } = serve;
    const session = await openLegacySession(url, board.token);
    const fixed: HostileRequest[] = (['modern', 'legacy'] as const).map((era) => ({
      headers: {
        contentType: 'application/json',
        accept: 'application/json, text/event-stream',
        protocolVersion: era === 'modern' ? MODERN : LEGACY,
        session: era === 'modern' ? undefined : 'valid',
        routing: era === 'modern' ? 'match' : undefined,
        authorization: 'owner',
      },
      body: deepBody(100_000, era),
    }));
    const all = { length: fixed.length + options.count };
    const requests = (function* () {
      yield* fixed;
      yield* samples(hostileRequest, options.count, options.seed ?? 2026);
    })();
    for (let i = 0; i < all.length; i += 1) {
      if (performance.now() - started > options.budgetMs) {
        figures.violations.push(
          `time budget of ${options.budgetMs} ms ran out after ${figures.sent} of ${all.length} messages`,
        );
        break;
      }
      const request = requests.next().value as HostileRequest;
      const answer = await send(url, headersOf(request, board.token, session), request.body);
      figures.sent += 1;
      recordHttp(figures, `${JSON.stringify(request.headers)} ${request.body}`, answer);
      if (i < fixed.length) {
        figures.deepAnswers.push(`${String(answer.status)} ${cut(answer.text, 200)}`);
        const refused = answer.status === 400 && /"code":-32600/.test(answer.text);
        if (!refused && !/"isError":true/.test(answer.text)) {
          figures.violations.push(
            `depth 100,000 answered ${String(answer.status)} ${cut(answer.text)}, not 400 / -32600 or a validation result`,
          );
        }
      }
      if (serve.child.exitCode !== null || serve.child.signalCode !== null) {
        figures.violations.push(
          `board exited after input: ${cut(request.body)}; stderr: ${cut(serve.stderr(), 2000)}`,
        );
        break;
      }
      if ((i + 1) % PROBE_EVERY === 0 || i === all.length - 1) {
        figures.probes += 1;
        const problem = await probeHttp(url, board.token);
        if (problem !== undefined) figures.violations.push(`${problem}; after input: ${cut(request.body)}`);
      }
      if (figures.violations.length > 50) break;
    }
  } finally {
    figures.elapsedMs = Math.round(performance.now() - started);
    serve?.child.kill('SIGTERM');
    if (serve) await serve.exited;
    board.remove();
  }
  return figures;
}

/** A line-oriented connection to `recourse-board stdio`: writes lines, waits for an answer with a given id. */
class StdioBoard {
  readonly child: ChildProcessWithoutNullStreams;
  private buffer = '';
  /** Lines received since the last {@link take}. */
  private lines: string[] = [];
  private waiter: (() => void) | undefined;
  stderr = '';

  constructor(dataDir: string, token: string) {
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'DATABASE_URL'));
    this.child = spawn(
      process.execPath,
      [BOARD_BIN, 'stdio', '--data-dir', dataDir, '--rate-limit', '1000000'],
      {
        stdio: 'pipe',
        env: { ...env, RECOURSE_TOKEN: token },
      },
    );
    this.child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-20_000);
    });
    this.child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.buffer += chunk;
      const parts = this.buffer.split('\n');
      this.buffer = parts.pop() ?? '';
      this.lines.push(...parts.filter((l) => l !== ''));
      this.waiter?.();
    });
    this.child.once('exit', () => this.waiter?.());
  }

  write(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Waits up to `ms` for the answer with id `id`; resolves with every line received meanwhile and whether it came. */
  async until(id: string, ms: number): Promise<{ lines: string[]; answered: boolean }> {
    const marker = `"id":"${id}"`;
    const deadline = performance.now() + ms;
    while (
      !this.lines.some((l) => l.includes(marker)) &&
      performance.now() < deadline &&
      this.child.exitCode === null
    ) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - performance.now()));
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.waiter = undefined;
    const answered = this.lines.some((l) => l.includes(marker));
    const lines = this.lines;
    this.lines = [];
    return { lines, answered };
  }
}

/**
 * Writes `count` hostile lines, one after another, to a fresh `recourse-board stdio` (a 2025 session), each
 * followed by a `ping`: the ping's answer must come within 5 s. Every answer line is checked, and a line that is
 * not JSON must be answered with -32700.
 */
export async function fuzzStdio(options: FuzzOptions): Promise<FuzzFigures> {
  const board = await seedBoard();
  const stdio = new StdioBoard(board.dataDir, board.token);
  const figures = newFigures();
  const started = performance.now();
  try {
    stdio.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'fuzz', version: '0.0.1' } },
      }),
    );
    const init = await stdio.until('init', 30_000);
    if (!init.answered)
      throw new Error(`recourse-board stdio did not answer initialize; stderr: ${stdio.stderr}`);
    stdio.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const lines = { length: 1 + options.count };
    const texts = (function* () {
      yield deepBody(100_000, 'legacy');
      for (const text of samples(hostileText, options.count, options.seed ?? 2026))
        yield text.replace(/[\r\n]/g, ' ');
    })();
    for (let i = 0; i < lines.length; i += 1) {
      if (performance.now() - started > options.budgetMs) {
        figures.violations.push(
          `time budget of ${options.budgetMs} ms ran out after ${figures.sent} of ${lines.length} lines`,
        );
        break;
      }
      const line = texts.next().value as string;
      const t0 = performance.now();
      stdio.write(line);
      const probeId = `p${i}`;
      stdio.write(JSON.stringify({ jsonrpc: '2.0', id: probeId, method: 'ping' }));
      const { lines: answers, answered } = await stdio.until(probeId, ANSWER_LIMIT_MS);
      const ms = performance.now() - t0;
      figures.sent += 1;
      bump(figures.byStatus, answered ? 'answered' : 'silent');
      if (ms > figures.slowestMs) {
        figures.slowestMs = Math.round(ms);
        figures.slowestInput = cut(line, 120);
      }
      const own = answers.filter((a) => !a.includes(`"id":"${probeId}"`));
      const problems = own.flatMap((a) => checkAnswer(a, figures));
      for (const a of own)
        if (messagesOf(a).length === 0) problems.push(`a stdout line that is not JSON-RPC: ${cut(a)}`);
      if (i === 0) figures.deepAnswers.push(cut(own.join(' '), 200));
      if (i === 0 && !own.some((a) => /"code":-32600|"isError":true/.test(a)))
        problems.push('depth 100,000 got no -32600 or validation result');
      if (notJson(line) && !own.some((a) => a.includes('"code":-32700'))) {
        problems.push('a line that is not JSON got no -32700 answer');
      }
      if (!answered) problems.push(`no answer to the ping after it within ${ANSWER_LIMIT_MS} ms`);
      if (stdio.child.exitCode !== null || stdio.child.signalCode !== null)
        problems.push(`the process exited; stderr: ${cut(stdio.stderr, 2000)}`);
      for (const problem of problems)
        figures.violations.push(`${problem}; input: ${cut(line)}; answers: ${cut(own.join('\n'))}`);
      if (stdio.child.exitCode !== null || figures.violations.length > 50) break;
      if ((i + 1) % PROBE_EVERY === 0 || i === lines.length - 1) {
        figures.probes += 1;
        const probeCall = `w${i}`;
        stdio.write(
          JSON.stringify({
            jsonrpc: '2.0',
            id: probeCall,
            method: 'tools/call',
            params: { name: 'whoami', arguments: {} },
          }),
        );
        const who = await stdio.until(probeCall, ANSWER_LIMIT_MS);
        const answer = who.lines.find((l) => l.includes(`"id":"${probeCall}"`)) ?? '';
        if (!answer.includes('"result"') || answer.includes('"isError":true'))
          figures.violations.push(`whoami probe failed: ${cut(answer)}; after input: ${cut(line)}`);
      }
    }
  } finally {
    figures.elapsedMs = Math.round(performance.now() - started);
    stdio.child.stdin.end();
    if (stdio.child.exitCode === null) {
      const exited = new Promise((resolve) => stdio.child.once('exit', resolve));
      stdio.child.kill('SIGTERM');
      await exited;
    }
    board.remove();
  }
  return figures;
}

/** One line of figures for the test's output. */
export function describeFigures(label: string, figures: FuzzFigures): string {
  return (
    `${label}: ${figures.sent} messages in ${(figures.elapsedMs / 1000).toFixed(1)} s; ` +
    `by status ${JSON.stringify(figures.byStatus)}; by code ${JSON.stringify(figures.byCode)}; ` +
    `${figures.probes} whoami probes; slowest answer ${figures.slowestMs} ms (${figures.slowestInput}); ` +
    `depth 100,000 got ${JSON.stringify(figures.deepAnswers)}; ${figures.violations.length} violations`
  );
}
