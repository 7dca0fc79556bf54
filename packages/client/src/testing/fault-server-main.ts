/**
 * `recourse-fault-server`: runs the fault-injection server over stdio or HTTP, so that any MCP client can be
 * tested against it. Faults are scripted with the `fault_inject` tool and read back with `fault_log`.
 *
 * @packageDocumentation
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { startFaultServer } from './fault-server.ts';
import { createFaultMcpServer, createFaultState } from './fault-tools.ts';

const HELP = `Usage: recourse-fault-server stdio
       recourse-fault-server http [--port <n>] [--host <address>]

Serves the fault-injection MCP server (tools echo, search, search_mirror, record, record_once, and the
control tools fault_inject, fault_log, fault_versions). Over HTTP it prints the endpoint URL and serves
until interrupted; the default address is 127.0.0.1 on a free port.
`;

/** Runs the command line `argv`; resolves with the exit code once the server is running or refused the usage. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  const [mode, ...rest] = argv;
  if (mode === 'stdio' && rest.length === 0) {
    const state = createFaultState();
    const handle = serveStdio(() => createFaultMcpServer(state));
    process.stdin.once('close', () => {
      state.closing.abort();
      void handle.close();
    });
    return 0;
  }
  if (mode === 'http') {
    let port = 0;
    let host = '127.0.0.1';
    for (let i = 0; i < rest.length; i += 2) {
      const [flag, value] = [rest[i], rest[i + 1]];
      if (flag === '--port' && value !== undefined && /^\d+$/.test(value) && Number(value) < 65536)
        port = Number(value);
      else if (flag === '--host' && value !== undefined) host = value;
      else {
        process.stderr.write(
          `recourse-fault-server: unknown option ${flag ?? ''}; run with --help for the usage.\n`,
        );
        return 2;
      }
    }
    const server = await startFaultServer({ host, port });
    process.stdout.write(`${server.url}\n`);
    process.once('SIGINT', () => void server.close());
    process.once('SIGTERM', () => void server.close());
    return 0;
  }
  if (mode === undefined || mode === '--help' || mode === '-h') {
    process.stdout.write(HELP);
    return mode === undefined ? 2 : 0;
  }
  process.stderr.write(`recourse-fault-server: unknown mode "${mode}"; expected stdio or http.\n`);
  return 2;
}
