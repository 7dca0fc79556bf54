/**
 * The failure console (owners and maintainers).
 *
 * @packageDocumentation
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BoardCallLog } from '../kit/call-log.ts';
import type { Member } from '../domain/member.ts';
import type { MemberService } from '../services/member-service.ts';

/** What the console needs. */
export interface ConsoleDeps {
  readonly callLog: BoardCallLog;
  readonly members: MemberService;
  readonly logLines?: (correlationId: string) => readonly Record<string, unknown>[];
}

/** Creates the console pages. */
export function createConsolePages(_deps: ConsoleDeps) {
  return {
    handle(_req: IncomingMessage, _res: ServerResponse, _path: string, _member: Member): Promise<boolean> {
      return Promise.resolve(false);
    },
  };
}
