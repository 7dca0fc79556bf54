/**
 * Every board tool, in one list for the server.
 *
 * @packageDocumentation
 */
import type { ToolDefinition } from '@recourse/server';
import type { BoardServices } from '../services/board-services.ts';
import { boardExportTool } from './board-export.ts';
import { membersListTool } from './members-list.ts';
import { tasksAssignTool } from './tasks-assign.ts';
import { tasksCommentTool } from './tasks-comment.ts';
import { tasksCreateTool } from './tasks-create.ts';
import { tasksDeleteTool } from './tasks-delete.ts';
import { tasksGetTool } from './tasks-get.ts';
import { tasksImportTool } from './tasks-import.ts';
import { tasksMoveTool } from './tasks-move.ts';
import { tasksSearchTool } from './tasks-search.ts';
import { tasksUpdateTool } from './tasks-update.ts';
import { whoamiTool } from './whoami.ts';
import type { ImportSourceOptions } from './import-source.ts';

/** Options of the board's tools. */
export interface BoardToolOptions {
  /** Limits of reading a `tasks_import` source URL (default 10 s, 5 MiB). */
  readonly importSource?: ImportSourceOptions;
}

/** Builds the board's tools over `services`. */
export function boardTools(services: BoardServices, options: BoardToolOptions = {}): ToolDefinition[] {
  const tools = [
    whoamiTool(services),
    membersListTool(services),
    tasksSearchTool(services),
    tasksGetTool(services),
    tasksCreateTool(services),
    tasksUpdateTool(services),
    tasksMoveTool(services),
    tasksAssignTool(services),
    tasksCommentTool(services),
    tasksDeleteTool(services),
    boardExportTool(services),
    tasksImportTool(services, options.importSource),
  ];
  return tools;
}
