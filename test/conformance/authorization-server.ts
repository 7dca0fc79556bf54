/**
 * Runs the conformance suite's authorization-server scenarios against the board (`npm run conformance` calls
 * it with the board's MCP URL and data directory): sets a password for the board's first owner, registers a
 * client for the suite's loopback callback by dynamic registration, starts `conformance authorization`, and when
 * the suite prints its authorization URL goes through the board's sign-in and consent pages (as a browser
 * without JavaScript would), then delivers the redirect to the suite's callback. Exits with the suite's code.
 *
 * Usage: node --import tsx test/conformance/authorization-server.ts <mcpUrl> <dataDir> <outputDir> [suite args…]
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../apps/board/src/cli/main.ts';
import { captureIo } from '../../apps/board/src/cli/cli-testing.ts';
import { driveConsent } from '../../apps/board/src/testing/consent-driver.ts';

const [mcpUrl = '', dataDir = '', outputDir = '', ...suiteArgs] = process.argv.slice(2);
const issuer = new URL(mcpUrl).origin;
const password = `conformance-${process.pid}-${Date.now()}`;
const shim = fileURLToPath(new URL('./compat/node20.mjs', import.meta.url));
const suite = fileURLToPath(new URL('../../node_modules/conformance-2026/dist/index.js', import.meta.url));

async function cli(args: string[], env: Record<string, string> = {}): Promise<string[]> {
  const io = captureIo(env);
  const code = await runCli([...args, '--data-dir', dataDir], io);
  if (code !== 0) throw new Error(`recourse-board ${args.join(' ')} failed: ${io.errLines.join(' ')}`);
  return io.outLines;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

const ownerId = (await cli(['members', 'list']))
  .map((line) => line.split('\t'))
  .find((f) => f[3] === 'owner')?.[0];
if (ownerId === undefined) throw new Error('the board has no owner to sign in as');
await cli(['members', 'password', ownerId], { RECOURSE_PASSWORD: password });

const port = await freePort();
const registration = await fetch(`${issuer}/oauth/register`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    client_name: 'MCP conformance suite',
    redirect_uris: [`http://127.0.0.1:${port}/callback`],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
  }),
});
const client = (await registration.json()) as { client_id?: string };
if (registration.status !== 201 || client.client_id === undefined)
  throw new Error(`dynamic registration failed with HTTP ${registration.status}`);

const child = spawn(
  process.execPath,
  [
    '--import',
    shim,
    suite,
    'authorization',
    '--url',
    issuer,
    '--client-id',
    client.client_id,
    '--resource',
    mcpUrl,
    '--port',
    String(port),
    '-o',
    outputDir,
    ...suiteArgs,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
let output = '';
let driven = false;
child.stdout.on('data', (chunk: Buffer) => {
  process.stdout.write(chunk);
  output += chunk.toString('utf8');
  const url = /(http:\/\/\S+\/oauth\/authorize\?\S+)/.exec(output)?.[1];
  if (url === undefined || driven) return;
  driven = true;
  void (async () => {
    // The suite starts its callback server before it prints the URL; give it a moment to listen.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const outcome = await driveConsent(url, { login: ownerId, password });
    if (outcome.kind !== 'redirect') throw new Error(`the consent pages ended on HTTP ${outcome.status}`);
    await fetch(outcome.url);
  })().catch((error: unknown) => {
    console.error(`driving the sign-in failed: ${error instanceof Error ? error.message : String(error)}`);
    child.kill('SIGTERM');
  });
});
child.on('close', (code) => {
  process.exitCode = code ?? 1;
});
