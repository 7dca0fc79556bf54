/**
 * Where the board keeps its data: `--data-dir`, else `RECOURSE_DATA_DIR`, else `.data` under the current directory.
 *
 * @packageDocumentation
 */
import { resolve } from 'node:path';
import type { CliIo } from './io.ts';

/** The shared `--data-dir` flag definition. */
export const DATA_DIR_OPTION = { 'data-dir': { type: 'string' } } as const;

/** Resolves the data directory from the flag, the environment or the default `.data`. */
export function resolveDataDir(flag: string | boolean | undefined, io: CliIo): string {
  if (typeof flag === 'string' && flag !== '') return resolve(io.cwd, flag);
  const fromEnv = io.env['RECOURSE_DATA_DIR'];
  if (fromEnv !== undefined && fromEnv !== '') return resolve(io.cwd, fromEnv);
  return resolve(io.cwd, '.data');
}
