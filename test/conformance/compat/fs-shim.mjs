// `node:fs` plus a `globSync` that says why it is missing. The suites use globSync only in `tier-check`,
// which needs GitHub and is never run here.
import fs from 'node:fs';

export * from 'node:fs';
export default fs;

export function globSync() {
  throw new Error("fs.globSync needs Node 22 or newer; it is used only by the suite's tier-check command.");
}
