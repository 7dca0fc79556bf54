/**
 * Test helper: PostgreSQL from Debian's packages, for the tests that need its client tools (`pg_dump`,
 * `pg_restore`) at the same major version as the server, which the npm-provided server binaries do not ship.
 * Installs the `postgresql` package when missing (as root).
 *
 * @packageDocumentation
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { postgresBinaries, type PostgresBinaries } from './postgres-binaries.ts';

const run = promisify(execFile);
const ROOT = '/usr/lib/postgresql';

function newestBin(): string | undefined {
  if (!existsSync(ROOT)) return undefined;
  const versions = readdirSync(ROOT)
    .filter((v) => existsSync(join(ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions[versions.length - 1];
  return newest === undefined ? undefined : join(ROOT, newest, 'bin');
}

/**
 * The server binaries of Debian's newest installed PostgreSQL (installing the `postgresql` package with apt-get
 * when none is, which needs root), run as the same account as the npm-provided ones.
 */
export async function debianPostgresBinaries(): Promise<PostgresBinaries & { bin: string }> {
  let bin = newestBin();
  if (bin === undefined) {
    if (process.getuid?.() !== 0)
      throw new Error(
        'PostgreSQL is not installed and this process is not root; run "apt-get install -y postgresql".',
      );
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    // The package would create and start a cluster on port 5432; the tests start their own.
    mkdirSync('/etc/postgresql-common', { recursive: true });
    writeFileSync('/etc/postgresql-common/createcluster.conf', 'create_main_cluster = false\n');
    await run('apt-get', ['update', '-qq'], { env, timeout: 300_000 });
    await run(
      'apt-get',
      [
        'install',
        '-y',
        '-qq',
        '-o',
        'Dpkg::Options::=--force-confdef',
        '-o',
        'Dpkg::Options::=--force-confold',
        'postgresql',
      ],
      { env, timeout: 600_000 },
    );
    bin = newestBin();
    if (bin === undefined) throw new Error('apt-get install postgresql installed no initdb.');
  }
  const { runAs } = await postgresBinaries();
  return { initdb: join(bin, 'initdb'), pgCtl: join(bin, 'pg_ctl'), runAs, bin };
}
