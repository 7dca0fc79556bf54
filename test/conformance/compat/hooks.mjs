// Resolve hook (see node20.mjs): `fs` imported from a conformance suite's dist resolves to fs-shim.mjs.
const SHIM = new URL('./fs-shim.mjs', import.meta.url).href;
const SUITE_DIST = /\/node_modules\/conformance-20\d\d\/dist\//;

export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && SUITE_DIST.test(context.parentURL ?? '')) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}
