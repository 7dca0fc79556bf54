import { createRecourseClient, isRecourseCallError } from '@recourse/client';
import type { RecourseCallError } from '@recourse/client';

/** One line for a log or a person, from any failure of a call: every field is reached by narrowing, no casts. */
export function describeFailure(error: RecourseCallError): string {
  switch (error.kind) {
    case 'tool': {
      const code = error.failure ? ` ${error.failure.code}` : '';
      return `${error.tool} failed (${error.category}${code}): ${error.message}`;
    }
    case 'protocol': {
      const http = error.httpStatus === undefined ? '' : ` (HTTP ${String(error.httpStatus)})`;
      return `${error.server} refused ${error.tool} with JSON-RPC ${String(error.rpcCode)}${http}`;
    }
    case 'local':
      switch (error.reason) {
        case 'timeout': {
          const code: 'CALL_TIMEOUT' = error.code; // `reason` narrows `code` too
          return `${code}: ${error.mayHaveReachedServer ? 'it may have run' : 'it was never sent'}`;
        }
        case 'transport': {
          const wait =
            error.retryAfterMs === undefined ? '' : `, retry after ${String(error.retryAfterMs)} ms`;
          return `connection failed${error.httpStatus === undefined ? '' : ` (HTTP ${String(error.httpStatus)})`}${wait}`;
        }
        default:
          return `${error.code}: ${error.message}`;
      }
  }
}

export async function getTask(ref: string): Promise<void> {
  const board = createRecourseClient({ target: { url: 'http://127.0.0.1:3000/mcp' } });
  try {
    await board.callTool('tasks_get', { ref });
  } catch (error) {
    if (!isRecourseCallError(error)) throw error;
    console.error(describeFailure(error));
  } finally {
    await board.close();
  }
}
