import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { acceptedKeys, schemaAt } from './schema-keys.ts';

const schema = z
  .object({
    title: z.string(),
    due: z.object({ date: z.string(), time: z.string().optional() }).strict().optional(),
    items: z.array(z.object({ name: z.string(), qty: z.number() }).strict()).default([]),
    meta: z.record(z.string(), z.object({ a: z.string() })).nullable(),
    later: z.lazy(() => z.object({ x: z.number() })),
  })
  .strict();

describe('acceptedKeys', () => {
  it('lists the keys of the root object in declaration order', () => {
    expect(acceptedKeys(schema, [])).toEqual(['title', 'due', 'items', 'meta', 'later']);
  });

  it('follows optional, default, nullable, array, record and lazy wrappers', () => {
    expect(acceptedKeys(schema, ['due'])).toEqual(['date', 'time']);
    expect(acceptedKeys(schema, ['items', 3])).toEqual(['name', 'qty']);
    expect(acceptedKeys(schema, ['meta', 'anything'])).toEqual(['a']);
    expect(acceptedKeys(schema, ['later'])).toEqual(['x']);
  });

  it('returns undefined for paths that are not objects or do not exist', () => {
    expect(acceptedKeys(schema, ['title'])).toBeUndefined();
    expect(acceptedKeys(schema, ['nope', 'deeper'])).toBeUndefined();
    expect(acceptedKeys(undefined, [])).toBeUndefined();
    expect(schemaAt({ not: 'a schema' }, ['x'])).toBeUndefined();
  });
});
