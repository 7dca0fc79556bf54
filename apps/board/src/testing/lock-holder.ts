/**
 * Test helper: another process that holds the write lock of a board database (`BEGIN IMMEDIATE`) for a while,
 * as an outside writer or a backup tool would.
 *
 * @packageDocumentation
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const SCRIPT = `
const Database = require(process.argv[1]);
const db = new Database(process.argv[2]);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\\n');
setTimeout(() => { db.exec('COMMIT'); db.close(); process.stdout.write('released\\n'); }, Number(process.argv[3]));
`;

/** A process holding the database's write lock; `released` resolves once it let go and exited. */
export interface LockHolder {
  readonly released: Promise<void>;
  readonly pid: number;
}

/** Spawns a process that takes the write lock of `file` and holds it for `ms`; resolves once it holds it. */
export async function holdWriteLock(file: string, ms: number): Promise<LockHolder> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const child = spawn(process.execPath, ['-e', SCRIPT, driver, file, String(ms)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const released = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the lock holder did not start within 20 s')), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('locked')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the lock holder exited with ${String(code)} before taking the lock`));
    });
  });
  return { released, pid: child.pid ?? 0 };
}
