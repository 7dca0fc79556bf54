// Loaded with `node --import`: on Node < 22 the conformance CLIs import `globSync` from `fs`, which Node 20
// lacks. A resolve hook hands only the suites' own modules an `fs` facade that has it; nothing in
// node_modules is modified and every other module sees the real `fs`.
import { register } from 'node:module';
import fs from 'node:fs';

if (typeof fs.globSync !== 'function') register('./hooks.mjs', import.meta.url);
