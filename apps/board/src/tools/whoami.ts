/** The `whoami` tool. @packageDocumentation */
import * as z from 'zod';
import { defineTool } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { grantOf, PERMISSIONS } from '../domain/roles.ts';
import { memberKindOf } from '../domain/member.ts';

/** `whoami`: the calling member, their role and what that role may do. Needs `board:read`. */
export function whoamiTool(_services: BoardServices) {
  return defineTool({
    name: 'whoami',
    title: 'Who am I',
    description:
      'Shows who you are on this board: your member id, name, kind (person or assistant), role, and the permissions ' +
      'your role holds (some only for tasks you created or are assigned to). Takes no arguments. ' +
      'To see the other members use members_list.',
    input: z.strictObject({}),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    permission: 'board:read',
    handler: (_args, ctx) => {
      const p = ctx.principal;
      const kind = memberKindOf(p) ?? 'member';
      const permissions = PERMISSIONS.flatMap((permission) => {
        const grant = grantOf(p.role, permission);
        return grant === undefined ? [] : [grant === 'full' ? permission : `${permission} (${grant})`];
      });
      return Promise.resolve({
        text: `You are ${p.name ?? p.id} (${p.id}), ${kind === 'assistant' ? 'an' : 'a'} ${kind} with role ${p.role ?? 'none'}. Permissions: ${permissions.join(', ')}.`,
        structuredContent: {
          memberId: p.id,
          name: p.name ?? p.id,
          kind,
          role: p.role ?? 'none',
          permissions,
        },
      });
    },
  });
}
