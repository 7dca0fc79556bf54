/**
 * Test helper: an SDK v2 client of the real `recourse-board stdio` binary, spawned on a data directory with a
 * token, in either protocol era.
 *
 * @packageDocumentation
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Era } from './board-host.ts';

/** The board's CLI entry point. */
export const BOARD_BIN = fileURLToPath(new URL('../../bin/recourse-board.mjs', import.meta.url));

/** What {@link connectStdioBoard} needs. */
export interface StdioBoardOptions {
  readonly dataDir: string;
  /** The member's token, passed as `RECOURSE_TOKEN`. */
  readonly token: string;
  /** Default `'legacy'` (the SDK's 2025 default); `'modern'` pins 2026-07-28. */
  readonly era?: Era;
  /** The client's name in `clientInfo`. */
  readonly name?: string;
}

/**
 * Spawns `recourse-board stdio --data-dir DIR` with `RECOURSE_TOKEN` (and an empty `DATABASE_URL`, so the
 * SQLite data directory is used) and connects an SDK client to it. The caller closes the client, which ends
 * the process.
 */
export async function connectStdioBoard(options: StdioBoardOptions): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BOARD_BIN, 'stdio', '--data-dir', options.dataDir],
    env: { ...(process.env as Record<string, string>), DATABASE_URL: '', RECOURSE_TOKEN: options.token },
    stderr: 'pipe',
  });
  const client = new Client(
    { name: options.name ?? 'board-stdio-test', version: '0.0.1' },
    options.era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  return client;
}
