/**
 * What a server process has used, read from Linux `/proc` so that any child can be measured however it was
 * started (by the benchmark or inside an SDK client transport): CPU time, current and peak resident memory.
 *
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of `/proc/<pid>/stat` (USER_HZ; 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) of `pid` in microseconds. */
export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
  // Fields after the command name (which may contain spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1_000_000) / TICKS_PER_SECOND;
}

/** Current (`VmRSS`) and peak (`VmHWM`) resident memory of `pid` in bytes. */
export function residentBytes(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${String(pid)}/status`, 'utf8');
  const kib = (name: string): number =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
}
