/**
 * Starts the interop servers of this folder as child processes: the v1 SDK or fastmcp, over stateless HTTP,
 * stateful HTTP or stdio. HTTP servers are spawned and awaited until they print their URL; a stdio server is
 * spawned by the client itself from the target returned here.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ServerTarget } from '@recourse/client';

/** Which server framework. */
export type InteropServerKind = 'v1' | 'fastmcp';
/** Which transport. */
export type InteropTransport = 'stateless' | 'stateful' | 'stdio';

/** A started interop server. */
export interface InteropServer {
  readonly target: ServerTarget;
  /** Ends the server process (HTTP); a stdio server ends with its client. */
  stop(): Promise<void>;
}

/** Every server/transport combination, for `describe.each`. */
export const INTEROP_COMBINATIONS: readonly (readonly [InteropServerKind, InteropTransport])[] = [
  ['v1', 'stateless'],
  ['v1', 'stateful'],
  ['v1', 'stdio'],
  ['fastmcp', 'stateless'],
  ['fastmcp', 'stateful'],
  ['fastmcp', 'stdio'],
];

/**
 * Whether no client can stop a running handler on this combination: fastmcp's stateless HTTP (mcp-proxy builds a
 * server per POST and neither closes it when the request's stream closes nor routes `notifications/cancelled`
 * to it; see the client README's limits).
 */
export function isDeafToCancellation(kind: InteropServerKind, transport: InteropTransport): boolean {
  return kind === 'fastmcp' && transport === 'stateless';
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function script(kind: InteropServerKind): string {
  return fileURLToPath(new URL(kind === 'v1' ? './v1-server.ts' : './fastmcp-server.ts', import.meta.url));
}

/** Starts `kind` over `transport`; rejects when an HTTP server does not print its URL within 20 s. */
export async function startInteropServer(
  kind: InteropServerKind,
  transport: InteropTransport,
): Promise<InteropServer> {
  const args = ['--import', 'tsx', script(kind), transport];
  if (transport === 'stdio') {
    return {
      target: { stdio: { command: process.execPath, args, cwd: ROOT } },
      stop: () => Promise.resolve(),
    };
  }
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind} ${transport} server did not start`)), 20_000);
    child.once('exit', (code) =>
      reject(new Error(`${kind} ${transport} server exited with ${String(code)}`)),
    );
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('READY ')) return;
      clearTimeout(timer);
      resolve(line.slice(6).trim());
    });
  });
  return {
    target: { url },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
