/**
 * Test support for the pipeline: a captured pino logger, a small permission policy and an in-memory client
 * connected to a fresh server instance. Not exported from the package.
 *
 * @packageDocumentation
 */
import { Writable } from 'node:stream';
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/server';
import { Client } from '@modelcontextprotocol/client';
import { pino } from 'pino';
import type { Logger } from '../logger.ts';
import type { PermissionPolicy, Principal, RecourseServer } from '../contract.ts';

/** A logger whose JSON lines are kept in `lines` (parsed). */
export interface CapturedLogger {
  readonly logger: Logger;
  readonly lines: Record<string, unknown>[];
}

/** Creates a pino logger writing to memory, at debug level. */
export function captureLogger(): CapturedLogger {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      callback();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

/** A policy from a table of role → permissions, in table order. */
export function tablePolicy(table: Readonly<Record<string, readonly string[]>>): PermissionPolicy {
  return {
    allows: (role, permission) => table[role]?.includes(permission) ?? false,
    rolesGranting: (permission) => Object.keys(table).filter((role) => table[role]?.includes(permission)),
  };
}

/** The roles of the test board. */
export const TEST_POLICY = tablePolicy({
  owner: ['board:read', 'notes:write', 'notes:admin'],
  maintainer: ['board:read', 'notes:write'],
  viewer: ['board:read'],
});

/** Builds a principal for tests. */
export function member(id: string, role = 'maintainer', kind = 'person'): Principal {
  return { id, name: `Caller ${id}`, role, attributes: { kind } };
}

/** An SDK client connected in memory to a fresh instance of `server` for `principal`. */
export async function connect(
  server: RecourseServer,
  principal: Principal | undefined,
  onClientMessage?: (message: JSONRPCMessage) => void,
): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  if (onClientMessage !== undefined) {
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (message, options) => {
      onClientMessage(message);
      return send(message, options);
    };
  }
  const mcp = server.createMcpServer({ principal, transport: 'stdio' });
  await mcp.connect(serverSide);
  const client = new Client({ name: 'pipeline-test', version: '0.0.1' });
  await client.connect(clientSide);
  return client;
}

/** Resolves after `ms` milliseconds. */
export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
