#!/usr/bin/env node
// Start-up time of the compiled CLIs against a bare import of the official SDK server package, measured side by
// side: `recourse-board --help` and `recourse call --help` vs `node -e "import('@modelcontextprotocol/server')"`.
// Each round runs the three commands in turn (so machine load hits them alike); the figures are medians of
// wall-clock time per process, and the ratio is CLI median / SDK-import median. Not a test: it prints figures.
//
//   npm run build && node bench/startup.mjs [--rounds 15]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' } } });
const rounds = Number(values.rounds);
if (!Number.isSafeInteger(rounds) || rounds < 1 || rounds > 200) {
  console.error(`--rounds is ${values.rounds}; expected a whole number from 1 to 200.`);
  process.exit(2);
}

const boardBin = join(root, 'apps', 'board', 'bin', 'recourse-board.mjs');
const clientBin = join(root, 'packages', 'client', 'bin', 'recourse.mjs');
for (const file of [
  join(root, 'apps', 'board', 'dist', 'cli', 'main.js'),
  join(root, 'packages', 'client', 'dist', 'cli', 'main.js'),
]) {
  if (!existsSync(file)) {
    console.error(`${file} is missing; run "npm run build" first.`);
    process.exit(2);
  }
}

const commands = [
  {
    name: 'node -e "import(\'@modelcontextprotocol/server\')"',
    args: ['-e', "import('@modelcontextprotocol/server')"],
  },
  { name: 'recourse-board --help', args: [boardBin, '--help'] },
  { name: 'recourse call --help', args: [clientBin, 'call', '--help'] },
];

/** Runs one command to completion (at most 30 s) and answers its wall-clock time in milliseconds. */
function time(args) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'ignore', timeout: 30_000 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0)
    throw new Error(`node ${args.join(' ')} exited with ${result.status ?? result.signal}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

for (const command of commands) time(command.args); // warm the file cache once
const samples = commands.map(() => []);
for (let round = 0; round < rounds; round += 1) {
  commands.forEach((command, i) => samples[i].push(time(command.args)));
}

const baseline = median(samples[0]);
console.log(`node ${process.version}, ${rounds} rounds, medians of wall-clock time per process\n`);
console.log('| command | median ms | min ms | max ms | × SDK import |');
console.log('| --- | ---: | ---: | ---: | ---: |');
commands.forEach((command, i) => {
  const m = median(samples[i]);
  console.log(
    `| \`${command.name}\` | ${m.toFixed(0)} | ${Math.min(...samples[i]).toFixed(0)} | ${Math.max(...samples[i]).toFixed(0)} | ${(m / baseline).toFixed(2)} |`,
  );
});
