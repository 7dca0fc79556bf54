/**
 * `recourse call`: calls a tool on any MCP server (URL or stdio command) through the resilient client and
 * prints the result, or the classified failure with its attempt log, exiting with a code per failure kind.
 *
 * @packageDocumentation
 */
import { parseArgs } from './args.ts';
import { EXIT_CODES, exitCodeOf } from './exit-codes.ts';
import { renderFailure, renderJson, renderSuccess } from './render.ts';

const MAIN_HELP = `Usage: recourse <command>

Commands:
  call    Call a tool on an MCP server and print the result or the classified failure.

Run "recourse call --help" for the options.
`;

const CALL_HELP = `Usage: recourse call <url> <tool> [json-args] [options]
       recourse call --stdio "<command> [args]" <tool> [json-args] [options]

Options:
  --token <token>        Bearer token for HTTP servers (default: $RECOURSE_TOKEN)
  --stdio "<command>"    Start the server as a child process and talk over stdin/stdout;
                         it inherits this environment (e.g. RECOURSE_TOKEN)
  --timeout <ms>         Deadline without an answer or progress (default 30000)
  --retries <n>          Extra attempts for calls that are safe to repeat (default 2)
  --protocol <mode>      auto (default), modern (2026-07-28) or legacy (2025 initialize)
  --json                 Print the outcome as JSON on stdout
  --help                 Show this help

Exit codes:
  0 success   2 usage error   3 tool failure (isError)   4 protocol error (JSON-RPC)
  5 timeout   6 cancelled     7 transport failure        8 ambiguous (may have taken effect)
  9 refused locally (breaker open or bulkhead full)      1 unexpected failure of the CLI
`;

/** Where the CLI writes. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Aborts the call (e.g. on SIGINT). */
  readonly signal?: AbortSignal;
}

/** Runs the CLI and resolves with its exit code; never rejects. */
export async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(argv, io.env);
  if (parsed.kind === 'help') {
    io.stdout.write(parsed.topic === 'main' ? MAIN_HELP : CALL_HELP);
    return EXIT_CODES.ok;
  }
  if (parsed.kind === 'usage_error') {
    io.stderr.write(`${parsed.message}\n`);
    return EXIT_CODES.usage;
  }
  const { command } = parsed;
  // Loaded here, after the arguments were read, so that `--help` and usage errors do not load the SDK client.
  const { createRecourseClient } = await import('../recourse-client.ts');
  const client = createRecourseClient({
    target: command.target,
    protocol: command.protocol,
    timeoutMs: command.timeoutMs,
    retry: { maxAttempts: command.retries + 1 },
  });
  try {
    const outcome = await client.tryCallTool(
      command.tool,
      command.args,
      io.signal ? { signal: io.signal } : {},
    );
    if (command.json) io.stdout.write(renderJson(outcome));
    if (outcome.ok) {
      if (!command.json) io.stdout.write(renderSuccess(outcome.value));
      return EXIT_CODES.ok;
    }
    if (!command.json) io.stderr.write(renderFailure(outcome.error));
    return exitCodeOf(outcome.error);
  } catch (error) {
    io.stderr.write(
      `recourse failed unexpectedly: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return EXIT_CODES.failed;
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** Entry point of the `recourse` binary: runs with the process's arguments and exits with the code. */
export async function main(): Promise<void> {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort(new Error('Interrupted.')));
  const code = await run(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    signal: controller.signal,
  });
  process.exitCode = code;
}
