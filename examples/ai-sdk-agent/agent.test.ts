import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleBoard } from '../support/example-board.ts';
import type { ExampleBoard } from '../support/example-board.ts';
import { runAiSdkAgent } from './agent.ts';
import type { AiSdkAgentReport } from './agent.ts';

let board: ExampleBoard;
let report: AiSdkAgentReport;

beforeAll(async () => {
  board = await startExampleBoard();
  report = await runAiSdkAgent(board);
});
afterAll(async () => {
  await board.close();
});

describe('an AI SDK agent (generateText, mock model) on the board through @recourse/client/ai-sdk', () => {
  it("shows the model the board's not_found as an error tool result with the board's whole sentence", () => {
    const notFound = report.seen[0];
    expect(notFound?.toolName).toBe('tasks_get');
    expect(notFound?.type).toBe('error-text');
    expect(notFound?.value).toMatch(
      /^\[not_found\] No task T-404 exists on the board\. .*Call tasks_search to find a task by its title\. Nothing was changed\. Retrying unchanged will not help\./,
    );
    expect(notFound?.value).not.toContain('Error executing tool');
  });

  it("lets the board validate the arguments: the model reads the board's validation sentence", () => {
    const invalid = report.seen[1];
    expect(invalid?.toolName).toBe('tasks_create');
    expect(invalid?.type).toBe('error-text');
    expect(invalid?.value).toMatch(
      /^\[validation\] Argument `title` is 42; expected a string\. Correct the arguments and call tasks_create again/,
    );
  });

  it('shows a success as the text the board answered, and the run goes on to the final answer', async () => {
    const created = report.seen[2];
    expect(created?.type).toBe('text');
    expect(String(created?.value)).toContain('Write the release notes');
    expect(report.text).toContain('release-notes task is created');
    const found = await board.board.services.tasks.search({ text: 'release notes', limit: 10, offset: 0 });
    const titles = found.tasks.map((task) => task.title);
    expect(titles).toEqual(['Write the release notes']);
  });
});
