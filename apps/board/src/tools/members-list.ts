/** The `members_list` tool. @packageDocumentation */
import * as z from 'zod';
import { defineTool } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { memberData } from './render.ts';

/** `members_list`: the active members with ids, kinds and roles. Needs `board:read`. */
export function membersListTool(services: BoardServices) {
  return defineTool({
    name: 'members_list',
    title: 'List members',
    description:
      'Lists the active members of the board (people and AI assistants) with their member ids, kinds and roles. ' +
      'Use it to find the member id to pass to tasks_assign or tasks_search. Takes no arguments. ' +
      'For your own identity use whoami.',
    input: z.strictObject({}),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    permission: 'board:read',
    handler: async () => {
      const members = await services.members.list(true);
      const lines = members.map((m) => `${m.id} ${m.name} (${m.kind}, ${m.role})`);
      return {
        text: `${members.length} active member${members.length === 1 ? '' : 's'}:\n${lines.join('\n')}`,
        structuredContent: { members: members.map(memberData) },
      };
    },
  });
}
