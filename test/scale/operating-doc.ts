/**
 * Reads docs/operating.md for the tests that run what it says: its fenced blocks and its shell commands, so that
 * the guide and the tested deployment cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The operator's guide. */
export const OPERATING_DOC = fileURLToPath(new URL('../../docs/operating.md', import.meta.url));

/** The bodies of the fenced blocks of `language` in the guide, in order. */
export function docBlocks(language: string): string[] {
  const text = readFileSync(OPERATING_DOC, 'utf8');
  const blocks: string[] = [];
  const fence = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm');
  for (const match of text.matchAll(fence)) blocks.push(match[1] ?? '');
  return blocks;
}

/** Every command line of the guide's `sh` blocks. */
export function docCommands(): string[] {
  return docBlocks('sh')
    .flatMap((block) => block.split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/**
 * The guide's one command line that starts with `prefix`, split into words (double-quoted words keep their
 * spaces, quotes removed), with `replace` applied to each word. Throws when there is not exactly one.
 */
export function docCommand(prefix: string, replace: Readonly<Record<string, string>> = {}): string[] {
  const lines = docCommands().filter((line) => line.startsWith(prefix));
  if (lines.length !== 1) {
    throw new Error(
      `docs/operating.md has ${String(lines.length)} commands starting with "${prefix}"; expected 1.`,
    );
  }
  const words = [...(lines[0] ?? '').matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
  return words.map((word) => replace[word] ?? word);
}

/** The commands of the guide that the tests run, by prefix; every command in the guide must start with one. */
export const EXERCISED_COMMANDS = [
  'recourse-board members add',
  'recourse-board tokens create',
  'recourse-board serve',
  'haproxy -c -f',
  'haproxy -db -f',
  'pg_dump',
  'pg_restore',
] as const;
