/**
 * Test support, run as its own process (`node --import tsx resume-task.ts URL TOKEN REFERENCE_JSON`): opens a new
 * tasks session on the board, resumes the task from its serialized reference, waits for its outcome and prints
 * it as one JSON line on stdout. Exit code 0 once printed, 1 on an error (message on stderr).
 */
import type { SerializedTaskReference } from '@modelcontextprotocol/ext-tasks/client';
import { openTaskSession } from './task-session.ts';

const [url, token, reference] = process.argv.slice(2);
if (url === undefined || token === undefined || reference === undefined) {
  process.stderr.write('usage: resume-task.ts URL TOKEN REFERENCE_JSON\n');
  process.exit(2);
}
const opened = await openTaskSession(url, token);
try {
  const execution = await opened.session.resumeTask(JSON.parse(reference) as SerializedTaskReference);
  const { outcome } = await execution.settle();
  process.stdout.write(`${JSON.stringify({ kind: execution.kind, outcome })}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await opened.close();
}
