/**
 * Conformance mode of the board (`recourse-board serve --conformance`): the board's own tools plus the MCP
 * conformance suite's fixtures, served by one Recourse server, and the fixed member that unauthenticated
 * requests act as.
 *
 * TEST ONLY. In conformance mode anyone who can reach the port acts as the "Conformance suite" member without a
 * token (read-only `viewer` role; fixture tools change nothing). Use it on loopback, in CI, never in production.
 *
 * @packageDocumentation
 */
import { randomBytes } from 'node:crypto';
import {
  createRequestStateCodec,
  InMemoryServerEventBus,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import {
  createRecourseServer,
  type Principal,
  type RawTool,
  type RecourseServerInstance,
} from '@recourse/server';
import type { Logger } from 'pino';
import { BOARD_INSTRUCTIONS, BOARD_NAME, BOARD_VERSION, type BoardServer } from '../board-server.ts';
import { boardPermissions } from '../domain/roles.ts';
import { memberPrincipal } from '../domain/member.ts';
import type { BoardServices } from '../services/board-services.ts';
import { boardTools } from '../tools/board-tools.ts';
import { conformanceExtension } from './fixture-catalog.ts';
import { legacyFixtureTools } from './fixture-tools.ts';
import { inputRequiredFixtureTools } from './mrtr-tools.ts';
import { headerFixtureTool, jsonSchemaFixtureTool } from './schema-fixture-tools.ts';
import { taskFixtureTools } from './task-fixture-tools.ts';
import { BOARD_GUIDANCE } from '../domain/board-guidance.ts';

/** Name of the member that conformance mode serves unauthenticated requests as. */
export const CONFORMANCE_MEMBER_NAME = 'Conformance suite';

/** The board in conformance mode: the server, its anonymous principal and the bus of its listen streams. */
export interface ConformanceBoard {
  readonly server: RecourseServerInstance;
  /** Pass as the HTTP host's `anonymous` option. */
  readonly anonymous: Principal;
  /** Pass as the HTTP host's `bus` option; the list-change fixtures publish on it. */
  readonly bus: ServerEventBus;
}

/** Finds or creates the conformance member (an assistant with the read-only `viewer` role). */
export async function conformanceMember(services: BoardServices): Promise<Principal> {
  const existing = (await services.members.list()).find(
    (member) => member.name === CONFORMANCE_MEMBER_NAME && member.revokedAt === null,
  );
  const member =
    existing ??
    (await services.members.add({ name: CONFORMANCE_MEMBER_NAME, kind: 'assistant', role: 'viewer' }));
  return memberPrincipal(member);
}

function listChangeTools(bus: ServerEventBus): RawTool[] {
  const trigger = (name: string, what: 'tools' | 'prompts'): RawTool => ({
    name,
    description: `Conformance fixture: announces that the ${what} list changed to subscribed clients.`,
    inputSchema: { type: 'object', properties: {} },
    handler: () => {
      bus.publish({ kind: what === 'tools' ? 'tools_list_changed' : 'prompts_list_changed' });
      return { content: [{ type: 'text', text: `Announced a ${what} list change.` }] };
    },
  });
  return [trigger('test_trigger_tool_change', 'tools'), trigger('test_trigger_prompt_change', 'prompts')];
}

/**
 * Builds the conformance server over an open board: the board's tools with its permissions and stores, the
 * suite's fixture tools as raw tools, the fixture resources and prompts, and signed multi-round-trip state
 * (a random key per process).
 */
export async function createConformanceBoard(board: BoardServer, logger: Logger): Promise<ConformanceBoard> {
  const codec = createRequestStateCodec<{ tool: string; round: number }>({
    key: randomBytes(32),
    ttlSeconds: 600,
  });
  const bus = new InMemoryServerEventBus();
  const server = createRecourseServer({
    name: BOARD_NAME,
    version: BOARD_VERSION,
    instructions: BOARD_INSTRUCTIONS,
    tools: boardTools(board.services),
    permissions: boardPermissions,
    guidance: BOARD_GUIDANCE,
    logger,
    idempotency: { store: board.idempotency },
    callLog: board.callLog,
    tasks: { store: board.taskStore },
    rawTools: [
      ...legacyFixtureTools(),
      ...inputRequiredFixtureTools(codec),
      jsonSchemaFixtureTool(),
      headerFixtureTool(),
      ...listChangeTools(bus),
      ...taskFixtureTools(),
    ],
    extend: conformanceExtension(),
    requestState: { verify: (state, ctx) => codec.verify(state, ctx) },
  });
  return { server, anonymous: await conformanceMember(board.services), bus };
}
