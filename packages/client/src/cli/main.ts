/**
 * `recourse call`: calls a tool on any MCP server (URL or stdio command) through the resilient client and
 * prints the result, or the classified failure with its attempt log, exiting with a code per failure kind.
 *
 * @packageDocumentation
 */
import type { ServerTarget } from '../connection.ts';
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
  --sign-in              Sign in with OAuth instead: prints the URL to open in a browser when no
                         usable tokens are stored, then keeps them (refreshed as needed) in an
                         owner-only (0600) file under $XDG_CONFIG_HOME/recourse/oauth/ (~/.config/...)
  --auth-file <path>     Where the OAuth tokens are kept; without --sign-in only stored tokens are
                         used and a call that needs a new sign-in exits 10
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
  9 refused locally (breaker open or bulkhead full)      10 sign-in failed, denied or needed again
  1 unexpected failure of the CLI
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
  const oauth = command.oauth;
  const base = command.target;
  const signInFailed = (error: unknown, signInError: new (...args: never[]) => Error): number => {
    io.stderr.write(
      `recourse: signing in to ${'url' in base ? String(base.url) : 'the server'} failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return error instanceof signInError ? EXIT_CODES.sign_in : EXIT_CODES.failed;
  };
  const call = async (target: ServerTarget) => {
    const client = createRecourseClient({
      target,
      protocol: command.protocol,
      timeoutMs: command.timeoutMs,
      retry: { maxAttempts: command.retries + 1 },
    });
    try {
      return await client.tryCallTool(command.tool, command.args, io.signal ? { signal: io.signal } : {});
    } finally {
      await client.close().catch(() => undefined);
    }
  };
  try {
    let outcome;
    if (oauth !== undefined && 'url' in base) {
      const { oauthProvider } = await import('./oauth-target.ts');
      const { SignInError } = await import('../oauth/sign-in.ts');
      const signedIn = async (interactive: boolean) => ({
        url: base.url,
        auth: await oauthProvider(base.url, oauth.file, interactive, io),
      });
      let target: ServerTarget;
      try {
        target = await signedIn(oauth.signIn);
      } catch (error) {
        return signInFailed(error, SignInError);
      }
      outcome = await call(target);
      // The stored sign-in was refused and could not be refreshed; the call was not run. Sign in once more.
      if (!outcome.ok && outcome.error.code === 'CALL_SIGN_IN_REQUIRED' && oauth.signIn) {
        io.stderr.write(
          'recourse: the stored sign-in was refused and could not be refreshed; signing in again.\n',
        );
        try {
          target = await signedIn(true);
        } catch (error) {
          return signInFailed(error, SignInError);
        }
        outcome = await call(target);
      }
    } else outcome = await call(base);
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
