/**
 * The "your first guarded tool" guide of the server README, run as written: `server.mjs` (the file the README
 * shows, checked to be the same) is started over stdio and over HTTP as a child process and called with the
 * Recourse client.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createRecourseClient, isRecourseCallError, type ServerTarget } from '@recourse/client';

const SERVER = fileURLToPath(new URL('server.mjs', import.meta.url));
const README = fileURLToPath(new URL('../../packages/server/README.md', import.meta.url));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill();
});

/** Starts `node server.mjs http` on a free port and resolves with its MCP URL (bounded: 30 s). */
function startHttp(): Promise<string> {
  const child = spawn(process.execPath, [SERVER, 'http'], { env: { ...process.env, PORT: '0' } });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no URL within 30 s:\n${stderr}`)), 30_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /serving MCP at (http:\/\/\S+)/.exec(stderr)?.[1];
      if (url !== undefined) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server.mjs http exited with ${String(code)}:\n${stderr}`));
    });
  });
}

async function exercise(target: ServerTarget): Promise<void> {
  const client = createRecourseClient({ target, timeoutMs: 20_000 });
  try {
    const ok = await client.callTool('notes_read', { name: 'welcome' });
    expect(ok.result.content).toEqual([{ type: 'text', text: 'Hello from your first guarded tool.' }]);

    const failed = await client.tryCallTool('notes_read', { name: 'shopping' });
    expect(failed.ok).toBe(false);
    const error = failed.ok ? undefined : failed.error;
    expect(isRecourseCallError(error) && error.kind === 'tool').toBe(true);
    if (error?.kind !== 'tool') return;
    expect(error.failure).toMatchObject({ category: 'not_found', code: 'NOTE_NOT_FOUND', retryable: false });
    const text = error.result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    expect(text).toContain('No note named "shopping". Expected one of: welcome, todo.');
    expect(text).toContain('Call notes_read again with one of those names.');
    expect(text).toContain('Nothing was changed.');
  } finally {
    await client.close();
  }
}

describe('your first guarded tool', () => {
  it('is the code the server README shows', () => {
    const readme = readFileSync(README, 'utf8');
    const block = /```js server\.mjs\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'a ```js server.mjs block in packages/server/README.md').toBeDefined();
    expect(block).toBe(readFileSync(SERVER, 'utf8'));
  });

  it('answers over stdio, with a not_found a model can act on', async () => {
    await exercise({ stdio: { command: process.execPath, args: [SERVER] } });
  });

  it('answers over HTTP the same way', async () => {
    await exercise({ url: await startHttp() });
  });
});
