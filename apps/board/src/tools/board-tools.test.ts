import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { boardFixture } from '../testing/board-fixture.ts';
import { PERMISSIONS } from '../domain/roles.ts';
import { boardTools } from './board-tools.ts';

const tools = boardTools((await boardFixture()).services);
const names = tools.map((t) => t.name);

describe('board tool declarations', () => {
  it.each(tools.map((t) => [t.name, t] as const))(
    '%s is described for a model and honestly annotated',
    (name, tool) => {
      const others = names.filter((n) => n !== name);
      expect(
        others.some((other) => tool.description.includes(other)),
        'names a tool to use instead',
      ).toBe(true);
      expect(tool.description.length).toBeGreaterThan(80);
      expect(PERMISSIONS as readonly string[]).toContain(tool.permission);
      const readOnly = tool.annotations.readOnlyHint === true;
      expect(readOnly).toBe(tool.permission === 'board:read' || tool.permission === 'board:export');
      if (readOnly) expect(tool.annotations.destructiveHint).toBeUndefined();
      if (tool.idempotent === true) expect(tool.annotations.idempotentHint).toBe(false);
      const schema = z.toJSONSchema(tool.input, { io: 'input' }) as {
        properties?: Record<string, { description?: string }>;
        additionalProperties?: boolean;
      };
      expect(schema.additionalProperties).toBe(false);
      for (const [field, property] of Object.entries(schema.properties ?? {})) {
        expect(property.description, `${name}.${field} has a description`).toBeTruthy();
      }
    },
  );

  it('marks only tasks_delete destructive, and tasks_move and tasks_assign idempotent', () => {
    expect(tools.filter((t) => t.annotations.destructiveHint === true).map((t) => t.name)).toEqual([
      'tasks_delete',
    ]);
    for (const name of ['tasks_move', 'tasks_assign']) {
      expect(tools.find((t) => t.name === name)?.annotations.idempotentHint).toBe(true);
    }
    expect(
      tools
        .filter((t) => t.idempotent === true)
        .map((t) => t.name)
        .sort(),
    ).toEqual(['tasks_comment', 'tasks_create', 'tasks_import']);
  });

  it('refuses refs that are not like T-12 with that phrase', () => {
    const get = tools.find((t) => t.name === 'tasks_get');
    const parsed = get?.input.safeParse({ ref: 'T-012' });
    expect(parsed?.success).toBe(false);
    expect(parsed?.error?.issues[0]?.message).toBe('a task ref like T-12');
  });

  it('says "a task ref like T-12" for a ref of the wrong type too', () => {
    const get = tools.find((t) => t.name === 'tasks_get');
    const parsed = get?.input.safeParse({ ref: 12 });
    expect(parsed?.error?.issues[0]?.message).toBe('a task ref like T-12');
  });

  it.each(['0000-01-01', '1899-12-31', '3000-01-01', '9999-12-31'])(
    'refuses the due date %s, naming the accepted range',
    (due) => {
      const create = tools.find((t) => t.name === 'tasks_create');
      const parsed = create?.input.safeParse({ title: 'x', due });
      expect(parsed?.success).toBe(false);
      expect(parsed?.error?.issues[0]?.message).toBe('a date from 1900-01-01 to 2999-12-31, like 2026-07-28');
    },
  );

  it.each(['1900-01-01', '2026-07-28', '2999-12-31'])('accepts the due date %s', (due) => {
    const create = tools.find((t) => t.name === 'tasks_create');
    expect(create?.input.safeParse({ title: 'x', due }).success).toBe(true);
  });
});
