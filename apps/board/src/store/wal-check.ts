/**
 * Reads a SQLite write-ahead log (the documented WAL file format) before the database is opened, to find damage
 * that SQLite itself would pass over in silence: on opening, SQLite replays the log up to its first frame whose
 * checksum fails and drops everything after it, so a damaged log loses committed writes without an error, and
 * `PRAGMA quick_check` on the result still says "ok".
 *
 * A log is reported as damaged when its header is not a valid WAL header, or when a frame of the current log
 * generation fails its checksum and a later frame of the same generation ends a committed transaction (which
 * SQLite would then drop). A failing frame at the very end is a write cut off by a crash, not damage: that
 * transaction was never committed. Frames of an older generation (other salts) are stale and ignored, as SQLite
 * does.
 *
 * @packageDocumentation
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
const MAGIC_LITTLE = 0x377f0682;
const MAGIC_BIG = 0x377f0683;
const WAL_VERSION = 3007000;

/** SQLite's WAL checksum over `bytes` (a multiple of 8), continuing from `seed`. */
function walChecksum(bytes: Buffer, bigEndian: boolean, seed: readonly [number, number]): [number, number] {
  let s0 = seed[0];
  let s1 = seed[1];
  for (let i = 0; i + 8 <= bytes.length; i += 8) {
    const x0 = bigEndian ? bytes.readUInt32BE(i) : bytes.readUInt32LE(i);
    const x1 = bigEndian ? bytes.readUInt32BE(i + 4) : bytes.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

function readAll(path: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, buffer, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks the write-ahead log at `path`. Returns undefined when it is absent, empty or sound, else one clause
 * saying what is wrong (e.g. "frame 12 of 40 fails its checksum; 3 committed transactions after it would be
 * lost").
 */
export function checkWriteAheadLog(path: string): string | undefined {
  const wal = readAll(path);
  if (wal === undefined || wal.length === 0) return undefined;
  if (wal.length < HEADER_BYTES) return `it is ${wal.length} bytes long, shorter than a WAL header`;
  const magic = wal.readUInt32BE(0);
  if (magic !== MAGIC_LITTLE && magic !== MAGIC_BIG) return 'its header is not a SQLite WAL header';
  const bigEndian = magic === MAGIC_BIG;
  if (wal.readUInt32BE(4) !== WAL_VERSION) return 'its header names an unknown WAL format version';
  const [h0, h1] = walChecksum(wal.subarray(0, 24), bigEndian, [0, 0]);
  if (h0 !== wal.readUInt32BE(24) || h1 !== wal.readUInt32BE(28)) return 'its header fails its checksum';
  const pageSize = wal.readUInt32BE(8);
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  const frameBytes = FRAME_HEADER_BYTES + pageSize;
  const frames = Math.floor((wal.length - HEADER_BYTES) / frameBytes);

  let seed: [number, number] = [h0, h1];
  let firstBad: number | undefined;
  let commitsAfterBad = 0;
  for (let i = 0; i < frames; i += 1) {
    const at = HEADER_BYTES + i * frameBytes;
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    const stored: [number, number] = [wal.readUInt32BE(at + 16), wal.readUInt32BE(at + 20)];
    const computed = walChecksum(
      wal.subarray(at + FRAME_HEADER_BYTES, at + frameBytes),
      bigEndian,
      walChecksum(wal.subarray(at, at + 8), bigEndian, seed),
    );
    const valid = computed[0] === stored[0] && computed[1] === stored[1];
    if (!valid && firstBad === undefined) firstBad = i;
    if (valid && firstBad !== undefined && wal.readUInt32BE(at + 4) !== 0) commitsAfterBad += 1;
    // The next frame is checked against this frame's stored checksum, so one damaged frame does not hide
    // the commits that follow it.
    seed = stored;
  }
  if (firstBad === undefined || commitsAfterBad === 0) return undefined;
  return `frame ${firstBad + 1} of ${frames} fails its checksum, and ${commitsAfterBad} committed transaction${commitsAfterBad === 1 ? '' : 's'} after it would be lost`;
}
