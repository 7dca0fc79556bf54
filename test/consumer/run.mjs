#!/usr/bin/env node
// `npm run test:consumer`: the packages as an adopter gets them. Packs every workspace package (`npm pack`),
// installs the tarballs into a new project in the system's temporary directory (outside the repository), then:
//   1. a plain Node ESM script imports every entry point of every package, serves the first-guarded-tool example
//      (examples/first-guarded-tool/server.mjs, copied as is) over HTTP and over stdio, and calls it with
//      @recourse/client: a success and a not_found failure on each transport;
//   2. a TypeScript consumer (strict, module/moduleResolution nodenext, skipLibCheck false) type-checks with 0 errors;
//   3. `npx recourse --help` and `npx recourse-board --help` run from the consumer's install.
// Needs the npm registry for the third-party dependencies (the npm cache is used first). Exits 1 on any failure.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const keep = process.argv.includes('--keep');
const work = mkdtempSync(join(tmpdir(), 'recourse-consumer-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();
const step = (name) => console.log(`\n== ${name} (${((Date.now() - started) / 1000).toFixed(0)} s)`);

function run(command, args, cwd, timeoutMs = 600_000) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: timeoutMs, env: process.env });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${cwd}) failed with ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
const installed = (name) => readJson(join(root, 'node_modules', ...name.split('/'), 'package.json')).version;

try {
  step('build and pack');
  run(npm, ['run', 'build', '--silent'], root);
  const tarballs = join(work, 'tarballs');
  mkdirSync(tarballs);
  const workspaces = readJson(join(root, 'package.json')).workspaces;
  const packed = {};
  for (const dir of workspaces) {
    const pkg = readJson(join(root, dir, 'package.json'));
    const [info] = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', tarballs], join(root, dir)));
    const files = info.files.map((f) => f.path);
    const stray = files.filter((f) => /(^|\/)(src|test)\/|\.test\.|tsbuildinfo/.test(f));
    if (stray.length > 0) throw new Error(`${pkg.name}'s tarball carries ${stray.join(', ')}`);
    for (const needed of ['LICENSE', 'README.md', 'package.json'])
      if (!files.includes(needed)) throw new Error(`${pkg.name}'s tarball lacks ${needed}`);
    packed[pkg.name] = { file: join(tarballs, info.filename), exports: Object.keys(pkg.exports) };
    console.log(`${info.filename}: ${files.length} files, ${info.size} bytes`);
  }

  step('install into a new project outside the repository');
  const consumer = join(work, 'consumer');
  mkdirSync(consumer);
  const fileSpec = (name) => `file:${packed[name].file}`;
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify(
      {
        name: 'recourse-consumer',
        private: true,
        type: 'module',
        dependencies: {
          ...Object.fromEntries(Object.keys(packed).map((name) => [name, fileSpec(name)])),
          '@modelcontextprotocol/server': installed('@modelcontextprotocol/server'),
          '@modelcontextprotocol/client': installed('@modelcontextprotocol/client'),
          zod: installed('zod'),
          // The optional peers of @recourse/client/ai-sdk and @recourse/client/langchain, whose entry points are
          // imported below; a consumer of the other entry points installs neither.
          ai: installed('ai'),
          '@langchain/core': installed('@langchain/core'),
        },
        devDependencies: {
          typescript: installed('typescript'),
          '@types/node': installed('@types/node'),
          // ai's declarations import the types of json-schema, which it does not depend on.
          '@types/json-schema': installed('@types/json-schema'),
        },
        // The packages depend on each other by version; these tarballs are that version.
        overrides: Object.fromEntries(Object.keys(packed).map((name) => [name, fileSpec(name)])),
      },
      null,
      2,
    ),
  );
  run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline'], consumer, 1_200_000);
  console.log(readdirSync(join(consumer, 'node_modules', '@recourse')).join(', '));

  step('plain Node ESM: every entry point, a guarded server over HTTP and stdio, client calls');
  copyFileSync(join(root, 'examples', 'first-guarded-tool', 'server.mjs'), join(consumer, 'server.mjs'));
  const entryPoints = Object.entries(packed).flatMap(([name, { exports }]) =>
    exports.filter((e) => e !== './package.json').map((e) => (e === '.' ? name : `${name}/${e.slice(2)}`)),
  );
  writeFileSync(
    join(consumer, 'check.mjs'),
    `import { spawn } from 'node:child_process';
import assert from 'node:assert/strict';
const entryPoints = ${JSON.stringify(entryPoints)};
for (const entry of entryPoints) {
  const module = await import(entry);
  assert.ok(Object.keys(module).length > 0, entry + ' exports nothing');
  console.log('imported ' + entry + ' (' + Object.keys(module).length + ' exports)');
}
const { createRecourseClient } = await import('@recourse/client');

async function exercise(label, target) {
  const client = createRecourseClient({ target, timeoutMs: 30000 });
  try {
    const ok = await client.callTool('notes_read', { name: 'welcome' });
    assert.equal(ok.result.content[0].text, 'Hello from your first guarded tool.');
    const failed = await client.tryCallTool('notes_read', { name: 'shopping' });
    assert.equal(failed.ok, false);
    assert.equal(failed.error.kind, 'tool');
    assert.equal(failed.error.failure.code, 'NOTE_NOT_FOUND');
    assert.match(failed.error.result.content[0].text, /No note named "shopping"\\. Expected one of: welcome, todo\\./);
    console.log(label + ': success and not_found as expected');
  } finally {
    await client.close();
  }
}

await exercise('stdio', { stdio: { command: process.execPath, args: ['server.mjs'] } });

const child = spawn(process.execPath, ['server.mjs', 'http'], { env: { ...process.env, PORT: '0' } });
try {
  const url = await new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error('no URL within 30 s: ' + stderr)), 30000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const match = /serving MCP at (http:\\/\\/\\S+)/.exec(stderr);
      if (match) { clearTimeout(timer); resolve(match[1]); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error('server exited with ' + code + ': ' + stderr)); });
  });
  await exercise('http', { url });
} finally {
  child.kill();
}
`,
  );
  process.stdout.write(run(process.execPath, ['check.mjs'], consumer, 300_000));

  step('TypeScript consumer: strict, nodenext, skipLibCheck false');
  writeFileSync(
    join(consumer, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        skipLibCheck: false,
        noEmit: true,
        types: ['node'],
      },
      files: ['consumer.ts'],
    }),
  );
  writeFileSync(
    join(consumer, 'consumer.ts'),
    `${entryPoints.map((e, i) => `import * as entry${i} from '${e}';`).join('\n')}
import { notFound, type FailureData } from '@recourse/core';
import { createRecourseServer, defineTool, startStdioHost, type Principal, type ToolContext } from '@recourse/server';
import { createRecourseClient, type CallOutcome } from '@recourse/client';
import * as z from 'zod';

export const all = [${entryPoints.map((_, i) => `entry${i}`).join(', ')}];
const tool = defineTool({
  name: 'notes_read',
  description: 'Reads a note.',
  input: z.strictObject({ name: z.string() }),
  annotations: { readOnlyHint: true },
  handler: async ({ name }: { name: string }, ctx: ToolContext) => {
    const who: Principal = ctx.principal;
    if (name !== 'welcome') throw notFound({ message: 'No note ' + name + ' for ' + who.id + '.' });
    return { text: 'hello' };
  },
});
export const server = createRecourseServer({ name: 'notes', version: '1.0.0', tools: [tool] });
export const start = () => startStdioHost({ factory: server.createMcpServer });
export async function call(): Promise<FailureData | undefined> {
  const client = createRecourseClient({ target: { url: 'http://127.0.0.1:1/mcp' } });
  const outcome: CallOutcome = await client.tryCallTool('notes_read', { name: 'x' });
  return outcome.ok || outcome.error.kind !== 'tool' ? undefined : outcome.error.failure;
}
`,
  );
  run(process.execPath, [join(consumer, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], consumer);
  console.log('tsc: 0 errors');

  step('CLIs from the install');
  for (const [bin, args] of [
    ['recourse', ['--help']],
    ['recourse', ['call', '--help']],
    ['recourse-board', ['--help']],
  ]) {
    const out = run(npm, ['exec', '--no', '--', bin, ...args], consumer, 120_000);
    if (!/Usage: /.test(out)) throw new Error(`${bin} ${args.join(' ')} printed no usage:\n${out}`);
    console.log(`npx ${bin} ${args.join(' ')}: ${out.split('\n')[0]}`);
  }
  console.log(`\nconsumer check passed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
} catch (error) {
  console.error(`\nconsumer check FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  if (keep) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
