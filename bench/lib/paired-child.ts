/**
 * Some rounds of one comparison of the paired phase (`paired.ts`) in a process of their own: opens the two
 * configurations of the {@link PairJob} given as the first argument (JSON) on the servers already running (a
 * stdio configuration spawns its server), warms both up, runs the job's rounds and prints their samples as JSON
 * on stdout.
 *
 * @packageDocumentation
 */
import { buildConfigs, type LazyServer } from './configs.ts';
import { warmUp } from './measure.ts';
import { pairRounds, type PairJob } from './paired.ts';

const job = JSON.parse(process.argv[2] ?? '{}') as PairJob;
const running =
  (name: string): LazyServer =>
  () => {
    const server = job.servers[name];
    return server === undefined
      ? Promise.reject(new Error(`the ${name} server is not running`))
      : Promise.resolve(server);
  };
const { configs } = buildConfigs(
  {
    floor: running('floor'),
    bare: running('bare'),
    boardSqlite: running('boardSqlite'),
    ...(job.servers['boardPg'] === undefined ? {} : { boardPg: running('boardPg') }),
  },
  job.sqlite,
  job.pg,
);
const open = async (id: string) => {
  const config = configs.find((c) => c.id === id);
  if (config === undefined) throw new Error(`no configuration ${id}`);
  const caller = await config.open();
  await warmUp(caller, job.warmMs);
  return caller;
};
const [a, b] = job.bFirst
  ? await open(job.b).then(async (opened) => [await open(job.a), opened] as const)
  : await open(job.a).then(async (opened) => [opened, await open(job.b)] as const);
const samples = await pairRounds(a, b, job);
await a.close();
await b.close();
process.stdout.write(JSON.stringify(samples));
