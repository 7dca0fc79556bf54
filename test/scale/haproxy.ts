/**
 * A real HAProxy in front of board instances for the scale tests: installed from Debian's packages when missing
 * (as root), configured and started exactly as docs/operating.md says, on loopback.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { docCommand, docBlocks } from './operating-doc.ts';

const run = promisify(execFile);

/** Where Debian installs the binary. */
const HAPROXY_BIN = '/usr/sbin/haproxy';

/** Installs HAProxy with apt-get when it is missing (needs root); resolves with the binary's path. */
export async function ensureHaproxy(): Promise<string> {
  if (existsSync(HAPROXY_BIN)) return HAPROXY_BIN;
  if (process.getuid?.() !== 0) {
    throw new Error(
      'HAProxy is not installed and this process is not root; run "apt-get update && apt-get install -y haproxy" first.',
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-qq'], { env, timeout: 300_000 });
  await run('apt-get', ['install', '-y', '-qq', 'haproxy'], { env, timeout: 300_000 });
  if (!existsSync(HAPROXY_BIN)) throw new Error('apt-get install haproxy did not install /usr/sbin/haproxy.');
  return HAPROXY_BIN;
}

/** One backend server: a board instance's loopback port. */
export interface Backend {
  readonly name: string;
  readonly port: number;
}

/**
 * The HAProxy configuration of docs/operating.md with the ports of this run: the guide's frontend
 * (`127.0.0.1:8080`) becomes `frontendPort`, and its `server` lines become `backends`. Throws when the guide no
 * longer has that shape.
 */
export function haproxyConfig(frontendPort: number, backends: readonly Backend[]): string {
  const [block] = docBlocks('haproxy');
  if (block === undefined) throw new Error('docs/operating.md has no haproxy block.');
  const lines = block.split('\n');
  const servers = lines.filter((line) => /^\s+server \S+ 127\.0\.0\.1:\d+ check$/.test(line));
  if (servers.length !== backends.length || !block.includes('bind 127.0.0.1:8080')) {
    throw new Error(
      'docs/operating.md: the haproxy block must bind 127.0.0.1:8080 and list one server per instance.',
    );
  }
  let next = 0;
  return lines
    .map((line) => {
      if (line.includes('bind 127.0.0.1:8080')) return line.replace('8080', String(frontendPort));
      if (!servers.includes(line)) return line;
      const backend = backends[next];
      next += 1;
      return `  server ${backend?.name ?? ''} 127.0.0.1:${String(backend?.port ?? 0)} check`;
    })
    .join('\n');
}

/** A running HAProxy. */
export interface RunningHaproxy {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Checks the configuration with `haproxy -c`, then starts HAProxy in the foreground. */
export async function startHaproxy(
  dir: string,
  frontendPort: number,
  backends: readonly Backend[],
): Promise<RunningHaproxy> {
  const bin = await ensureHaproxy();
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(frontendPort, backends));
  const [, ...check] = docCommand('haproxy -c -f', { 'haproxy.cfg': file });
  await run(bin, check, { timeout: 30_000 });
  const [, ...serve] = docCommand('haproxy -db -f', { 'haproxy.cfg': file });
  const child = spawn(bin, serve, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${String(frontendPort)}`;
  for (let i = 0; i < 100; i += 1) {
    if (child.exitCode !== null) throw new Error(`HAProxy exited at start: ${stderr}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    url,
    child,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
