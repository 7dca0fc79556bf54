/**
 * Each package's public surface is pinned: for every entry point in a workspace package's `exports`, the names
 * it exports (values and types) are listed in `<package>/api/<entry>.txt`. A change to an export list fails
 * here until the pinned file changes with it, so that a change to the public API is a conscious one:
 * `PIN_PUBLIC_API=1 npx vitest run test/public-api.test.ts` rewrites the pinned files, and the diff shows in
 * review. The test also checks that every entry point is built (`types` and `default` under `dist/`, beside
 * the `recourse-source` condition that development and tests use) and that the compiled module exports the
 * same values as its source.
 */
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

interface EntryPoint {
  pkg: string;
  dir: string;
  subpath: string;
  source: string;
  types: string;
  default: string;
}

interface ConditionalEntry {
  'recourse-source'?: string;
  types?: string;
  default?: string;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

function entryPoints(): EntryPoint[] {
  const workspaces = readJson<{ workspaces: string[] }>(join(root, 'package.json')).workspaces;
  const entries: EntryPoint[] = [];
  for (const dir of workspaces) {
    const pkg = readJson<{ name: string; exports: Record<string, string | ConditionalEntry> }>(
      join(root, dir, 'package.json'),
    );
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      if (subpath === './package.json') continue;
      const entry = typeof target === 'string' ? {} : target;
      entries.push({
        pkg: pkg.name,
        dir,
        subpath,
        source: entry['recourse-source'] ?? '',
        types: entry.types ?? '',
        default: entry.default ?? '',
      });
    }
  }
  return entries;
}

const ENTRIES = entryPoints();

/** `value name` / `type name` lines, sorted, for every name the source entry file exports. */
function exportList(program: ts.Program, file: string): string {
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  if (source === undefined) throw new Error(`${file} is not part of the program`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (moduleSymbol === undefined) throw new Error(`${file} has no exports`);
  const lines = checker.getExportsOfModule(moduleSymbol).map((symbol) => {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const isValue = (target.flags & ts.SymbolFlags.Value) !== 0;
    return `${isValue ? 'value' : 'type'} ${symbol.name}`;
  });
  return `${lines.sort().join('\n')}\n`;
}

function pinnedFile(entry: EntryPoint): string {
  const name = entry.subpath === '.' ? 'index' : entry.subpath.slice(2).replaceAll('/', '-');
  return join(root, entry.dir, 'api', `${name}.txt`);
}

describe('public export lists', () => {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  const files = ENTRIES.map((entry) => join(root, entry.dir, entry.source));
  const program = ts.createProgram(files, config?.options ?? {});

  it('finds an entry point in every workspace package', () => {
    const packages = new Set(ENTRIES.map((entry) => entry.pkg));
    expect([...packages].sort()).toEqual([
      '@recourse/board',
      '@recourse/client',
      '@recourse/core',
      '@recourse/server',
    ]);
  });

  it.each(ENTRIES.map((entry) => [`${entry.pkg} ${entry.subpath}`, entry] as const))(
    '%s: source, types and default are declared and built',
    (_name, entry) => {
      expect(entry.source, 'the recourse-source condition').toMatch(/^\.\/src\/.+\.ts$/);
      const built = entry.source.replace(/^\.\/src\//, './dist/').replace(/\.ts$/, '');
      expect(entry.types).toBe(`${built}.d.ts`);
      expect(entry.default).toBe(`${built}.js`);
      expect(existsSync(join(root, entry.dir, entry.source)), entry.source).toBe(true);
      expect(existsSync(join(root, entry.dir, entry.types)), `${entry.types} (run npm run build)`).toBe(true);
      expect(existsSync(join(root, entry.dir, entry.default)), `${entry.default} (run npm run build)`).toBe(
        true,
      );
    },
  );

  it.each(ENTRIES.map((entry) => [`${entry.pkg} ${entry.subpath}`, entry] as const))(
    '%s: exports exactly the pinned names',
    async (_name, entry) => {
      const actual = exportList(program, join(root, entry.dir, entry.source));
      const file = pinnedFile(entry);
      if (process.env['PIN_PUBLIC_API'] === '1') {
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSync(file, actual);
      }
      expect(
        existsSync(file),
        `${file} pins this entry point's exports; create it with PIN_PUBLIC_API=1 npx vitest run test/public-api.test.ts`,
      ).toBe(true);
      expect(
        actual,
        `the export list of ${entry.pkg} ${entry.subpath} changed; if that is intended, re-pin it`,
      ).toBe(readFileSync(file, 'utf8'));

      const values = actual
        .split('\n')
        .filter((line) => line.startsWith('value '))
        .map((line) => line.slice('value '.length));
      const compiled = (await import(pathToFileURL(join(root, entry.dir, entry.default)).href)) as object;
      expect(
        Object.keys(compiled).sort(),
        'the compiled module exports the same values as its source',
      ).toEqual(values);
    },
  );
});
