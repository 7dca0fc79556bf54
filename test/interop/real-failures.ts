/**
 * Real failures for the interop servers' `fails_like` tool: each case runs the operation that fails in the
 * field (a refused or reset connection, a DNS miss, a timeout, a locked SQLite database, node-postgres losing its connection, an
 * upstream's HTTP status text, a programming error…) and throws what the runtime or library threw, unchanged,
 * so the failure texts the client sees are the ones deployed servers really send.
 */
import { lookup } from 'node:dns/promises';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { STATUS_CODES, createServer as createHttpServer, get } from 'node:http';
import { createConnection, createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { z } from 'zod';

/** The failures a `fails_like` call can reproduce. */
export const FAILURE_CASES = [
  'connect_refused',
  'fetch_refused',
  'connection_reset',
  'socket_hang_up',
  'dns_not_found',
  'fetch_timeout',
  'pg_terminated',
  'sqlite_locked',
  'sqlite_unique',
  'file_missing',
  'type_error',
  'json_syntax',
  'zod_enum',
  'zod_missing',
  'upstream_429',
  'upstream_502',
  'upstream_503',
  'upstream_504',
  'upstream_403',
  'upstream_404',
  'upstream_409',
] as const;

/** One of {@link FAILURE_CASES}. */
export type FailureCase = (typeof FAILURE_CASES)[number];

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Runs `work` against a loopback TCP server that treats each connection with `onSocket`. */
async function withServer<T>(
  onSocket: Parameters<typeof createServer>[1],
  work: (port: number) => Promise<T>,
): Promise<T> {
  const server = createServer(onSocket);
  const port = await listen(server);
  try {
    return await work(port);
  } finally {
    server.close();
  }
}

function httpGet(port: number): Promise<never> {
  return new Promise((_, reject) => {
    get({ host: '127.0.0.1', port, path: '/' }, (res) => res.resume()).on('error', reject);
  });
}

/** An upstream HTTP service answering `status`; the thrown text is its response body (the status text). */
async function upstream(status: number): Promise<never> {
  const server = createHttpServer((_req, res) => res.writeHead(status).end(STATUS_CODES[status]));
  const port = await new Promise<number>((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
  try {
    const response = await fetch(`http://127.0.0.1:${String(port)}/`);
    throw new Error(await response.text());
  } finally {
    server.close();
  }
}

async function sqlite<T>(work: (path: string) => T): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'interop-sqlite-'));
  try {
    return work(join(dir, 'db.sqlite'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Performs the failing operation of `how` and rejects with what it threw. */
export async function failLike(how: FailureCase): Promise<never> {
  const status = /^upstream_(\d+)$/.exec(how)?.[1];
  if (status !== undefined) return upstream(Number(status));
  switch (how) {
    case 'connect_refused': {
      const port = await closedPort();
      return new Promise((_, reject) => createConnection(port, '127.0.0.1').on('error', reject));
    }
    case 'fetch_refused':
      await fetch(`http://127.0.0.1:${String(await closedPort())}/`);
      break;
    case 'connection_reset':
      return withServer((socket) => socket.resetAndDestroy(), httpGet);
    case 'socket_hang_up':
      return withServer((socket) => socket.end(), httpGet);
    case 'dns_not_found':
      await lookup('db-7.invalid');
      break;
    case 'fetch_timeout':
      return withServer(
        () => undefined,
        async (port) => {
          await fetch(`http://127.0.0.1:${String(port)}/`, { signal: AbortSignal.timeout(50) });
          throw new Error('the hanging upstream answered');
        },
      );
    case 'pg_terminated':
      // node-postgres against a server that hangs up during the handshake.
      return withServer(
        (socket) => socket.end(),
        async (port) => {
          await new pg.Client({ host: '127.0.0.1', port, user: 'interop', database: 'interop' }).connect();
          throw new Error('the handshake succeeded');
        },
      );
    case 'sqlite_locked':
      return sqlite((path) => {
        const holder = new Database(path);
        const other = new Database(path, { timeout: 0 });
        try {
          holder.exec('CREATE TABLE t (id INTEGER)');
          holder.exec('BEGIN IMMEDIATE');
          other.exec('INSERT INTO t VALUES (1)');
          throw new Error('the write was not locked out');
        } finally {
          other.close();
          holder.close();
        }
      });
    case 'sqlite_unique':
      return sqlite((path) => {
        const db = new Database(path);
        try {
          db.exec('CREATE TABLE tasks (ref TEXT PRIMARY KEY)');
          db.exec("INSERT INTO tasks VALUES ('T-1')");
          db.exec("INSERT INTO tasks VALUES ('T-1')");
          throw new Error('the duplicate was stored');
        } finally {
          db.close();
        }
      });
    case 'file_missing':
      await readFile('/nonexistent/interop/config.json');
      break;
    case 'type_error': {
      const config = JSON.parse('{}') as { upstream: { url: string } };
      return Promise.reject(new Error(config.upstream.url));
    }
    case 'json_syntax':
      JSON.parse('{upstream: 1}');
      break;
    case 'zod_enum':
      z.object({ priority: z.enum(['low', 'normal', 'high']) }).parse({ priority: 'urgent' });
      break;
    case 'zod_missing':
      z.object({ title: z.string() }).parse({});
      break;
  }
  throw new Error(`the operation of ${how} did not fail`);
}
