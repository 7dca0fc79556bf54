/**
 * What a server process has used, read from Linux `/proc` so that any child can be measured however it was
 * started (by the benchmark or inside an SDK client transport): CPU time, current and peak resident memory.
 *
 * @packageDocumentation
 */
import { readdirSync, readFileSync } from 'node:fs';

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

/**
 * CPU time of all threads of `pid` in microseconds, from the scheduler's nanosecond counters
 * (`/proc/<pid>/task/<tid>/schedstat`): precise enough for batches of a few hundred milliseconds, where the
 * 10 ms ticks of {@link cpuMicros} would be a few percent off. Threads that ended meanwhile are not counted.
 */
export function preciseCpuMicros(pid: number): number {
  let nanos = 0;
  for (const tid of readdirSync(`/proc/${String(pid)}/task`)) {
    try {
      nanos += Number(readFileSync(`/proc/${String(pid)}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return nanos / 1000;
}
