import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentToolFailure } from '@recourse/client/langchain';
import { startExampleBoard } from '../support/example-board.ts';
import type { ExampleBoard } from '../support/example-board.ts';
import { CALLS_PER_MINUTE, runLangChainAgent } from './agent.ts';
import type { LangChainAgentReport } from './agent.ts';

let board: ExampleBoard;
let report: LangChainAgentReport;

beforeAll(async () => {
  board = await startExampleBoard({ callsPerMinute: CALLS_PER_MINUTE });
  report = await runLangChainAgent(board);
});
afterAll(async () => {
  await board.close();
});

describe('a LangGraph agent (ToolNode, scripted model) on the board through @recourse/client/langchain', () => {
  it("shows the model the board's validation sentence, not LangChain's schema error", () => {
    const invalid = report.seen[0];
    expect(invalid).toMatchObject({ name: 'tasks_create', status: 'error' });
    expect(invalid?.content).toMatch(
      /^\[validation\] Argument `title` is 42; expected a string\. Correct the arguments and call tasks_create again/,
    );
    expect(invalid?.content).not.toContain('did not match expected schema');
    expect(invalid?.content).not.toMatch(/fix your mistakes/i);
  });

  it("shows a rate limit as the board's sentence with nothing appended that contradicts it", () => {
    const refused = report.seen.filter((message) => message.name === 'whoami' && message.status === 'error');
    // The validation failure and the successful create were calls too, so at least one whoami is refused.
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const message of refused) {
      expect(message.content).toMatch(
        new RegExp(
          `^\\[rate_limit\\] Member Agent \\(m_\\w+\\) with role contributor may make ${String(CALLS_PER_MINUTE)} tool calls a minute .*Nothing was changed\\. Wait \\d+ s and try again\\. The server logged this failure as c_\\w+; quote it when reporting the problem\\.$`,
        ),
      );
      expect(message.content).not.toMatch(/fix your mistakes|Error:/i);
      const failure = message.artifact as AgentToolFailure;
      expect(failure).toMatchObject({ kind: 'tool', code: 'CALL_TOOL_FAILED', retryable: true });
      expect(failure.failure).toMatchObject({ category: 'rate_limit', code: 'RATE_LIMITED', changed: false });
      // The wait the board asked for is longer than the call's deadline, so the client did not retry.
      expect(failure.attempts).toHaveLength(1);
    }
  });

  it('shows a success as the text the board answered and keeps the whole result as the artifact', () => {
    const created = report.seen[1];
    expect(created).toMatchObject({ name: 'tasks_create', status: 'success' });
    expect(created?.content).toContain('"Write the release notes"');
    expect(created?.artifact).toMatchObject({
      structuredContent: { task: { title: 'Write the release notes' } },
    });
    expect(report.text).toContain('rate-limited');
  });
});
