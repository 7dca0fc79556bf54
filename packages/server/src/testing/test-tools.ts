/**
 * A small set of tools for the pipeline tests (not the board): an echo, a note store with an idempotent write,
 * a tool that fails with secrets in its error, a slow write that ignores its signal, and one that waits for
 * cancellation.
 *
 * @packageDocumentation
 */
import * as z from 'zod';
import { notFound } from '@recourse/core';
import { defineTool, type ToolDefinition } from '../contract.ts';
import { delay } from './harness.ts';

/** What the test tools did, for assertions. */
export interface TestWorld {
  readonly notes: { id: number; text: string; by: string }[];
  /** How many times the note handler started. */
  noteRuns: number;
  /** Abort reasons seen by handlers, as messages. */
  readonly abortReasons: string[];
  /** Errors thrown by `ctx.commit` after an abort, as codes. */
  readonly commitErrors: string[];
  /** Fail the next `notes_add` runs with a purposeful failure (count). */
  failNextNotes: number;
}

/** A secret-laden error message like one a database driver might produce. */
export const SECRET_ERROR_MESSAGE =
  'connect ECONNREFUSED 10.0.3.7:5432 for postgres://board:hunter2-secret@db-primary.internal:5432/board ' +
  'while reading /srv/app/node_modules/pg/lib/client.js';

/** Creates fresh tools over a fresh {@link TestWorld}. */
export function createTestTools(): { world: TestWorld; tools: ToolDefinition[] } {
  const world: TestWorld = { notes: [], noteRuns: 0, abortReasons: [], commitErrors: [], failNextNotes: 0 };

  const echo = defineTool({
    name: 'echo',
    title: 'Echo',
    description: 'Repeats a text. Use notes_add to store one instead.',
    input: z
      .object({
        text: z.string().max(20).describe('The text to repeat, at most 20 characters.'),
        priority: z.enum(['low', 'normal', 'high']).optional().describe('A priority.'),
        times: z.number().int().min(1).max(3).optional().describe('How often to repeat it, 1 to 3.'),
      })
      .strict(),
    annotations: { readOnlyHint: true, idempotentHint: true },
    permission: 'board:read',
    handler: (args, ctx) => {
      const text = Array.from({ length: args.times ?? 1 }, () => args.text).join(' ');
      return Promise.resolve({ text, structuredContent: { text, member: ctx.principal.id } });
    },
  });

  const notesAdd = defineTool({
    name: 'notes_add',
    description: 'Stores a note. Takes an idempotency key.',
    input: z.object({
      text: z.string().min(1).max(100),
      holdMs: z.number().int().min(0).max(2000).optional(),
    }),
    annotations: { readOnlyHint: false },
    permission: 'notes:write',
    idempotent: true,
    handler: async (args, ctx) => {
      world.noteRuns += 1;
      if (args.holdMs !== undefined) await delay(args.holdMs);
      if (world.failNextNotes > 0) {
        world.failNextNotes -= 1;
        throw notFound({ code: 'NOTEBOOK_NOT_FOUND', message: 'The notebook is gone.' });
      }
      const note = ctx.commit(() => {
        const created = { id: world.notes.length + 1, text: args.text, by: ctx.principal.id };
        world.notes.push(created);
        return created;
      });
      return { text: `Stored note ${String(note.id)}.`, structuredContent: { id: note.id } };
    },
  });

  const explode = defineTool({
    name: 'explode',
    description: 'Always fails with an internal error.',
    input: z.object({}),
    annotations: {},
    permission: 'board:read',
    handler: () => {
      const error = new Error(SECRET_ERROR_MESSAGE);
      error.stack = `Error: ${SECRET_ERROR_MESSAGE}\n    at Client.connect (/srv/app/node_modules/pg/lib/client.js:132:17)`;
      return Promise.reject(error);
    },
  });

  const slowWrite = defineTool({
    name: 'slow_write',
    description: 'Writes a note after a delay, ignoring its signal.',
    input: z.object({ waitMs: z.number().int().min(0).max(5000) }),
    annotations: {},
    permission: 'notes:write',
    deadlineMs: 200,
    handler: async (args, ctx) => {
      await delay(args.waitMs);
      try {
        ctx.commit(() =>
          world.notes.push({ id: world.notes.length + 1, text: 'slow', by: ctx.principal.id }),
        );
      } catch (error) {
        world.commitErrors.push(String((error as { code?: unknown }).code));
        throw error;
      }
      return { text: 'written' };
    },
  });

  const awaitCancel = defineTool({
    name: 'await_cancel',
    description: 'Waits until cancelled, then tries to write.',
    input: z.object({}),
    annotations: {},
    permission: 'notes:write',
    deadlineMs: 5000,
    handler: async (_args, ctx) => {
      await ctx.progress(1, 2, 'waiting');
      await new Promise<void>((resolve) => {
        ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      });
      world.abortReasons.push((ctx.signal.reason as Error).message);
      try {
        ctx.commit(() =>
          world.notes.push({ id: world.notes.length + 1, text: 'late', by: ctx.principal.id }),
        );
      } catch (error) {
        world.commitErrors.push(String((error as { code?: unknown }).code));
      }
      return { text: 'stopped' };
    },
  });

  const admin = defineTool({
    name: 'notes_purge',
    description: 'Deletes every note.',
    input: z.object({}),
    annotations: { destructiveHint: true },
    permission: 'notes:admin',
    cost: 5,
    handler: (_args, ctx) => {
      ctx.commit(() => world.notes.splice(0));
      return Promise.resolve({ text: 'purged' });
    },
  });

  return { world, tools: [notesAdd, echo, explode, slowWrite, awaitCancel, admin] };
}
