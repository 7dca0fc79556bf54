/**
 * Finds the keys a (possibly nested) zod object accepts, for messages about unknown keys.
 *
 * @packageDocumentation
 */

interface DefLike {
  readonly type?: string;
  readonly shape?: Record<string, unknown>;
  readonly innerType?: unknown;
  readonly element?: unknown;
  readonly in?: unknown;
  readonly valueType?: unknown;
  readonly items?: readonly unknown[];
  readonly getter?: () => unknown;
}

/** The `def` of a zod 4 schema, or undefined for anything else. */
function defOf(schema: unknown): DefLike | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const zod = (schema as { _zod?: { def?: unknown } })._zod;
  const def = zod?.def ?? (schema as { def?: unknown }).def;
  return typeof def === 'object' && def !== null ? def : undefined;
}

const WRAPPERS = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'readonly',
  'catch',
  'nonoptional',
  'success',
]);

/** Strips wrappers (optional, nullable, default, pipe input, lazy…) off a schema, with a bound on depth. */
function unwrap(schema: unknown): unknown {
  let current = schema;
  for (let i = 0; i < 32; i++) {
    const def = defOf(current);
    if (def === undefined) return current;
    if (def.type !== undefined && WRAPPERS.has(def.type)) current = def.innerType;
    else if (def.type === 'pipe') current = def.in;
    else if (def.type === 'lazy' && def.getter !== undefined) current = def.getter();
    else return current;
  }
  return current;
}

/** The schema found at `path` inside `schema`, or undefined when the path leaves what can be followed. */
export function schemaAt(schema: unknown, path: readonly PropertyKey[]): unknown {
  let current = unwrap(schema);
  for (const key of path) {
    const def = defOf(current);
    if (def === undefined) return undefined;
    if (def.type === 'object' && def.shape !== undefined && typeof key === 'string') current = def.shape[key];
    else if (def.type === 'array') current = def.element;
    else if (def.type === 'record') current = def.valueType;
    else if (def.type === 'tuple' && typeof key === 'number') current = def.items?.[key];
    else return undefined;
    current = unwrap(current);
  }
  return current;
}

/** The keys the object schema at `path` accepts, in declaration order, or undefined when not an object. */
export function acceptedKeys(schema: unknown, path: readonly PropertyKey[]): readonly string[] | undefined {
  const def = defOf(schemaAt(schema, path));
  return def?.type === 'object' && def.shape !== undefined ? Object.keys(def.shape) : undefined;
}
