#!/usr/bin/env node
// `npm run conformance`: starts `recourse-board serve --conformance` on loopback (port 0, throwaway data
// directory), runs the pinned MCP conformance suites against it (server scenarios) and against
// test/conformance/client.ts (client scenarios), then prints a per-suite summary read from the suites'
// checks.json files. Exits 1 on any regression: a suite that exits non-zero, which with a baseline includes a
// stale baseline entry. Offline: everything talks to 127.0.0.1 / localhost. See README.md.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const shim = join(here, 'compat', 'node20.mjs');
const suiteCli = (name) => join(root, 'node_modules', name, 'dist', 'index.js');
const SUITE_2025 = suiteCli('conformance-2025'); // @modelcontextprotocol/conformance 0.1.16
const SUITE_2026 = suiteCli('conformance-2026'); // @modelcontextprotocol/conformance 0.2.0-alpha.12
const CLIENT = `${process.execPath} --import tsx ${relative(root, join(here, 'client.ts'))}`;
// Drives the authorization-server scenarios: sets a password, registers a client, goes through the pages.
const AUTHORIZATION = join(here, 'authorization-server.ts');
const BASELINE_2025 = join(here, 'baseline-2025.yml');
const BASELINE_2026 = join(here, 'baseline-2026.yml');
const START_TIMEOUT_MS = 30_000;
const STEP_TIMEOUT_MS = 120_000;

const CLIENT_2025 = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];
// The alpha's own versions of the 2025-era client scenarios (default protocol version 2025-11-25).
const CLIENT_2026_LEGACY = [...CLIENT_2025, 'json-schema-2020-12-preservation'];
const CLIENT_2026 = [
  'tools_call',
  'request-metadata',
  'sep-2322-client-request-state',
  'http-standard-headers',
  'http-custom-headers',
  'http-invalid-tool-headers',
  'json-schema-ref-no-deref',
  'json-schema-2020-12-preservation',
];

// The OAuth client scenarios (`auth/*`), run against client.ts's `signIn` with the suites' mock authorization
// servers. The `[extension]` ones are run too and baselined (see the baselines).
const AUTH_COMMON = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
];
// Not 0.1.16's auth/2025-03-26-oauth-metadata-backcompat: its mock serves metadata whose issuer
// (http://localhost:PORT/oauth) is not the issuer its well-known URL was built from (http://localhost:PORT/), which
// the SDK refuses as RFC 8414 §3.3 asks. 0.2.0-alpha.12's version of the scenario fixes the mock and passes below.
const AUTH_2025 = [
  ...AUTH_COMMON.filter((s) => s !== 'auth/2025-03-26-oauth-metadata-backcompat'),
  'auth/cross-app-access-complete-flow',
];
const AUTH_2026 = [
  ...AUTH_COMMON,
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  'auth/enterprise-managed-authorization',
  'auth/dpop',
  'auth/dpop-nonce',
  'auth/wif-jwt-bearer',
];

const work = mkdtempSync(join(tmpdir(), 'recourse-conformance-'));
const out = process.env.CONFORMANCE_OUT ?? join(work, 'results');
const strip = (text) => text.replace(/\x1b\[[0-9;]*m/g, '');

/** Runs a suite CLI (or a tsx script) to completion (bounded by STEP_TIMEOUT_MS); resolves with its exit code and output. */
function runSuite(cli, args) {
  return new Promise((resolve) => {
    const loader = cli.endsWith('.ts') ? ['--import', 'tsx'] : [];
    const child = spawn(process.execPath, ['--import', shim, ...loader, cli, ...args], {
      cwd: root,
      env: process.env,
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 124 : 1), output: strip(output) });
    });
  });
}

/** The board's environment: a throwaway SQLite directory always, never a database named by DATABASE_URL. */
function boardEnv() {
  const env = { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
  delete env.DATABASE_URL;
  delete env.RECOURSE_DATA_DIR;
  return env;
}

/** Starts the board in conformance mode and resolves with its MCP URL once it listens. */
function startBoard() {
  const child = spawn(
    process.execPath,
    [
      join(root, 'apps', 'board', 'bin', 'recourse-board.mjs'),
      'serve',
      '--conformance',
      '--port',
      '0',
      '--data-dir',
      join(work, 'data'),
    ],
    { cwd: root, env: boardEnv() },
  );
  let log = '';
  child.stderr.on('data', (chunk) => (log += chunk));
  const ready = new Promise((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(
      () => reject(new Error(`the board did not start within ${START_TIMEOUT_MS} ms:\n${log}`)),
      START_TIMEOUT_MS,
    );
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /(http:\/\/\S+\/mcp)\b/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the board exited with code ${code} before listening:\n${log}`));
    });
  });
  return { child, ready, log: () => log };
}

/** Every checks.json under `dir`, as `{ scenario, checks }`. */
function readChecks(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true })
    .filter((file) => String(file).endsWith('checks.json'))
    .map((file) => ({
      scenario: String(file)
        .split(/[\\/]/)[0]
        .replace(/-\d{4}-\d{2}-\d{2}T.*$/, '')
        .replace(/^(server|authorization-server)-/, ''),
      checks: JSON.parse(readFileSync(join(dir, String(file)), 'utf8')),
    }));
}

function summarize(name, dir, code) {
  const runs = readChecks(dir);
  const count = (status) =>
    runs.reduce((n, run) => n + run.checks.filter((c) => c.status === status).length, 0);
  const failing = runs
    .filter((run) => run.checks.some((c) => c.status === 'FAILURE' || c.status === 'WARNING'))
    .map((run) => run.scenario);
  return {
    name,
    code,
    scenarios: runs.length,
    passed: count('SUCCESS'),
    failed: count('FAILURE'),
    warnings: count('WARNING'),
    failing,
  };
}

/** A 0.2.0-alpha.12 client scenario at 2026-07-28, against the baseline. */
function client2026(name, scenario, extra = []) {
  const args = ['client', '--command', CLIENT, '--scenario', scenario, '--spec-version', '2026-07-28'];
  return { name, cli: SUITE_2026, args: () => [...args, ...extra, '--expected-failures', BASELINE_2026] };
}

const steps = [
  {
    name: 'authorization 0.2.0-alpha.12 (board as authorization server)',
    cli: AUTHORIZATION,
    // The script passes `-o` itself, after the board's data directory.
    args: (url) => [url, join(work, 'data')],
    outputFirst: true,
  },
  {
    name: 'server 0.1.16 --suite all',
    cli: SUITE_2025,
    args: (url) => ['server', '--url', url, '--suite', 'all', '--expected-failures', BASELINE_2025],
  },
  {
    name: 'server 0.2.0-alpha.12 --requirements 2026-07-28',
    cli: SUITE_2026,
    args: (url) => ['server', '--url', url, '--requirements', '2026-07-28'],
  },
  {
    name: 'server 0.2.0-alpha.12 --suite all',
    cli: SUITE_2026,
    args: (url) => ['server', '--url', url, '--suite', 'all', '--expected-failures', BASELINE_2026],
  },
  ...CLIENT_2025.map((scenario) => ({
    name: 'client 0.1.16',
    cli: SUITE_2025,
    args: () => ['client', '--command', CLIENT, '--scenario', scenario, '--expected-failures', BASELINE_2025],
  })),
  ...CLIENT_2026_LEGACY.map((scenario) => ({
    name: 'client 0.2.0-alpha.12 (2025-11-25)',
    cli: SUITE_2026,
    args: () => ['client', '--command', CLIENT, '--scenario', scenario, '--expected-failures', BASELINE_2026],
  })),
  ...AUTH_2025.map((scenario) => ({
    name: 'client 0.1.16 auth',
    cli: SUITE_2025,
    args: () => ['client', '--command', CLIENT, '--scenario', scenario, '--expected-failures', BASELINE_2025],
  })),
  // --force: the 2025-03-26 back-compat scenarios are not listed for 2026-07-28 but stay worth passing.
  ...AUTH_2026.map((scenario) => client2026('client 0.2.0-alpha.12 auth', scenario, ['--force'])),
  ...CLIENT_2026.map((scenario) => client2026('client 0.2.0-alpha.12 (2026-07-28)', scenario)),
];

const startedAt = Date.now();
const board = startBoard();
const results = new Map();
let failed = false;
try {
  const url = await board.ready;
  console.log(`Recourse Board (conformance mode) at ${url}; results in ${out}`);
  // One step at a time: the client scenarios are timing-sensitive (sse-retry) and the machine may be small.
  for (const step of steps) {
    const dir = join(out, step.name.replace(/[^a-z0-9.]+/gi, '-'));
    const label = `${step.name}${step.args(url).includes('--scenario') ? ` ${step.args(url)[4]}` : ''}`;
    const { code, output } = await runSuite(
      step.cli,
      step.outputFirst === true ? [...step.args(url), dir] : [...step.args(url), '-o', dir],
    );
    writeFileSync(join(work, `${label.replace(/[^a-z0-9.]+/gi, '-')}.log`), output);
    console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${label} (exit ${code})`);
    if (code !== 0) {
      failed = true;
      console.log(output.split('\n').slice(-25).join('\n'));
    }
    const previous = results.get(step.name);
    results.set(step.name, { dir, code: Math.max(previous?.code ?? 0, code) });
  }
} catch (error) {
  failed = true;
  console.log(`FAIL ${error instanceof Error ? error.message : String(error)}`);
} finally {
  board.child.kill('SIGTERM');
}

console.log(`\n=== Conformance summary (${((Date.now() - startedAt) / 1000).toFixed(1)} s) ===`);
for (const [name, { dir, code }] of results) {
  const s = summarize(name, dir, code);
  const extra =
    s.failing.length > 0
      ? `\n    failing scenarios${code === 0 ? ' (baselined or not scored)' : ''}: ${s.failing.join(', ')}`
      : '';
  console.log(
    `${code === 0 ? '✓' : '✗'} ${name}: ${s.scenarios} scenarios, ${s.passed} checks passed, ${s.failed} failed, ${s.warnings} warnings (exit ${code})${extra}`,
  );
}
console.log(
  failed
    ? 'RESULT: FAILED (a regression, a stale baseline entry, or the server did not start)'
    : 'RESULT: PASSED',
);
if (process.env.CONFORMANCE_OUT === undefined && !failed) rmSync(work, { recursive: true, force: true });
process.exitCode = failed ? 1 : 0;
