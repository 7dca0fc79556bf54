/**
 * Test support, run as its own process (`node --import tsx start-task-and-exit.ts URL TOKEN TOOL ARGS_JSON`): a
 * Recourse client starts TOOL as a task, prints the task reference as one JSON line once the server created it,
 * and exits at once, as a process that is restarted mid-task would.
 */
import { createRecourseClient } from '../../packages/client/src/index.ts';

const [url, token, tool, args] = process.argv.slice(2);
if (url === undefined || token === undefined || tool === undefined || args === undefined) {
  process.stderr.write('usage: start-task-and-exit.ts URL TOKEN TOOL ARGS_JSON\n');
  process.exit(2);
}
const client = createRecourseClient({ target: { url, token } });
try {
  await client.callTool(tool, JSON.parse(args) as Record<string, unknown>, {
    task: {
      onCreated: (reference) => {
        process.stdout.write(`${JSON.stringify(reference)}\n`, () => process.exit(0));
        return new Promise<void>(() => undefined);
      },
    },
  });
  process.stderr.write(`${tool} settled before a task was created\n`);
  process.exitCode = 1;
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
