/**
 * The `recourse-board` command line: dispatches to the commands, prints `--help`, maps errors to exit codes
 * (2: wrong usage, one line on stderr; 1: the command failed).
 *
 * @packageDocumentation
 */
import { isToolFailure } from '@recourse/core';
import { HELP } from './help.ts';
import type { CliIo } from './io.ts';
import { UsageError, USAGE_EXIT_CODE } from './usage-error.ts';

function helpFor(path: string, io: CliIo): number {
  io.out(HELP[path] ?? HELP[''] ?? '');
  return 0;
}

/** Runs the CLI with `argv` (without `node` and the script) and returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help')
      return helpFor('', io);
    let result: number | 'help';
    let path = command;
    switch (command) {
      // Each command is loaded when it runs, so that `--help` and usage errors start fast.
      case 'serve':
        result = await (await import('./commands/serve.ts')).serveCommand(rest, io);
        break;
      case 'stdio':
        result = await (await import('./commands/stdio.ts')).stdioCommand(rest, io);
        break;
      case 'log':
        result = await (await import('./commands/log.ts')).logCommand(rest, io);
        break;
      case 'backup':
        result = await (await import('./commands/backup.ts')).backupCommand(rest, io);
        break;
      case 'members':
      case 'tokens':
      case 'grants': {
        const [sub, ...args] = rest;
        path = sub === undefined || sub.startsWith('-') ? command : `${command} ${sub}`;
        const load = {
          members: async () => (await import('./commands/members.ts')).membersCommand,
          tokens: async () => (await import('./commands/tokens.ts')).tokensCommand,
          grants: async () => (await import('./commands/grants.ts')).grantsCommand,
        }[command];
        result = await (await load())(sub, args, io);
        break;
      }
      default:
        throw new UsageError(
          `recourse-board: unknown command ${JSON.stringify(command)}; expected serve, stdio, members, tokens, grants, log or backup. Run "recourse-board --help".`,
        );
    }
    return result === 'help' ? helpFor(path, io) : result;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(error.message);
      return USAGE_EXIT_CODE;
    }
    if (isToolFailure(error)) {
      io.err(
        `recourse-board ${command}: ${[error.failure.message, error.failure.next].filter(Boolean).join(' ')}`,
      );
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.err(`recourse-board ${command}: ${message.split('\n')[0] ?? ''}`);
    return 1;
  }
}

/** Runs the CLI on `process.argv` and exits; SIGINT and SIGTERM stop long-running commands cleanly. */
export async function main(): Promise<void> {
  const stopRequested = new Promise<string>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  const io: CliIo = {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    stopRequested,
    cwd: process.cwd(),
    readStdin: async () => {
      if (process.stdin.isTTY) return '';
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin as AsyncIterable<Buffer>) chunks.push(chunk);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
  const code = await runCli(process.argv.slice(2), io);
  process.exit(code);
}
