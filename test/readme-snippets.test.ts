/**
 * README snippets marked `<!-- snippet: path -->` are copies of files that `npm run typecheck` compiles, so a
 * snippet that stops compiling fails CI. This test keeps each copy identical to its file.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const READMES = ['packages/client/README.md'];
const MARKER = /<!-- snippet: (\S+) -->\s*```ts\n([\s\S]*?)```/g;

describe.each(READMES)('snippets of %s', (readme) => {
  const text = readFileSync(`${ROOT}/${readme}`, 'utf8');
  const snippets = [...text.matchAll(MARKER)];

  it('has at least one compiled snippet', () => {
    expect(snippets.length).toBeGreaterThan(0);
  });

  it.each(snippets.map((m) => [m[1] ?? '', m[2] ?? '']))('shows %s exactly as compiled', (path, shown) => {
    expect(shown).toBe(readFileSync(`${ROOT}/${path}`, 'utf8'));
  });
});
