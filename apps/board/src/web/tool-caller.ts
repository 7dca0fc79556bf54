/**
 * Calls the board's tools for a signed-in person exactly as an MCP client would: a fresh MCP server of the
 * board's Recourse server, bound to the member's principal, linked in memory to an MCP client. Every page action
 * therefore runs through the same permission check, rate limit, validation, services and call log as a model's
 * call, and a refusal carries the very sentence a model reads.
 *
 * @packageDocumentation
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import type { RecourseServerInstance } from '@recourse/server';
import { memberPrincipal, type Member } from '../domain/member.ts';

/** The failure entry a tool result carries in `_meta`. */
const FAILURE_META = 'dev.recourse/failure';

/** What a tool call answered, as a page shows it. */
export type ToolAnswer =
  | { readonly ok: true; readonly text: string; readonly data: Record<string, unknown> }
  | {
      readonly ok: false;
      /** The text a model reads (what failed, what is accepted, the next step). */
      readonly text: string;
      readonly code: string;
      readonly category: string;
      readonly correlationId: string | undefined;
      /** The failure's structured details (e.g. a version conflict's current version). */
      readonly failure: Record<string, unknown>;
    };

/** Calls one tool as `member`. */
export type ToolCaller = (member: Member, tool: string, args: Record<string, unknown>) => Promise<ToolAnswer>;

/** Creates the caller over the board's Recourse server. */
export function createToolCaller(server: RecourseServerInstance): ToolCaller {
  return async (member, tool, args) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const mcp = server.createMcpServer({ principal: memberPrincipal(member), transport: 'http-modern' });
    await mcp.connect(serverSide);
    const client = new Client({ name: 'recourse-board-pages', version: '1' });
    try {
      await client.connect(clientSide);
      const result = await client.callTool({ name: tool, arguments: args });
      const content = (result.content ?? []) as { type: string; text?: string }[];
      const text = content.map((c) => (c.type === 'text' ? (c.text ?? '') : '')).join('\n');
      if (result.isError !== true)
        return { ok: true, text, data: (result.structuredContent ?? {}) as Record<string, unknown> };
      const failure = (result._meta?.[FAILURE_META] ?? {}) as Record<string, unknown>;
      return {
        ok: false,
        text,
        code: typeof failure['code'] === 'string' ? failure['code'] : 'UNKNOWN',
        category: typeof failure['category'] === 'string' ? failure['category'] : 'internal',
        correlationId: typeof failure['correlationId'] === 'string' ? failure['correlationId'] : undefined,
        failure,
      };
    } finally {
      await client.close().catch(() => undefined);
      await mcp.close().catch(() => undefined);
    }
  };
}

/** The HTTP status a page answers a refused action with, by failure category. */
export function statusOf(answer: ToolAnswer): number {
  if (answer.ok) return 200;
  const byCategory: Record<string, number> = {
    validation: 400,
    not_found: 404,
    permission: 403,
    conflict: 409,
    rate_limit: 429,
    auth: 401,
  };
  return byCategory[answer.category] ?? 500;
}
