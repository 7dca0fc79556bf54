import { createRecourseClient } from '@recourse/client';
import type { CallSuccess, TaskReference } from '@recourse/client';

/**
 * Runs `board_export` as a task, keeping its reference in `saved` until it settles; after a restart, pass the
 * saved reference back in to wait for the same task instead of starting a new one.
 */
export async function exportBoard(
  url: string,
  token: string,
  saved: { reference?: TaskReference },
): Promise<CallSuccess> {
  const client = createRecourseClient({
    target: { url, token },
    tasks: { maxLifetimeMs: 30 * 60_000, maxFailedPolls: 8 },
  });
  try {
    if (saved.reference !== undefined) return await client.resumeTask(saved.reference);
    return await client.callTool(
      'board_export',
      { format: 'csv' },
      {
        task: {
          onCreated: (reference) => void (saved.reference = reference),
          onStatus: (task) => console.log(task.status, task.statusMessage ?? ''),
        },
      },
    );
  } finally {
    await client.close();
  }
}
