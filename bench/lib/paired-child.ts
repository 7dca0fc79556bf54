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
const first = await open(job.bFirst ? job.b : job.a);
const second = await open(job.bFirst ? job.a : job.b);
const [a, b] = job.bFirst ? [second, first] : [first, second];
const samples = await pairRounds(a, b, job);
await a.close();
await b.close();
process.stdout.write(JSON.stringify(samples));
