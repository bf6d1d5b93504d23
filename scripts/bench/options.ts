/**
 * @module The benchmark's command line, parsed once. `--quick` changes the defaults (smaller sizes,
 * shorter runs); any option given explicitly wins over it.
 */
import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Catalogue sizes in books, ascending; listings run at each, throughput and the stream at the largest. */
  sizes: number[];
  quick: boolean;
  /** Interleaved rounds per throughput scenario (each round runs every contender once). */
  rounds: number;
  /** Seconds per wrk run. */
  duration: number;
  connections: number;
  threads: number;
  /** Measured requests per listing scenario and size. */
  samples: number;
  /** Keep the generated databases (and the PGlite directory) instead of dropping them. */
  keep: boolean;
  peer: 'platformatic' | undefined;
  /** The PostgreSQL server whose administrative database the bench creates its databases from. */
  databaseUrl: string;
  /** Where docs/performance.md, the chart and results.json go. */
  docsDir: string;
  /** Only rewrite the report from a results.json a run saved; measure nothing. */
  from: string | undefined;
  /** Measure this scenario alone and print its figures, writing no report. */
  only: Scenario | undefined;
}

/** The scenarios `--only` runs alone. */
export const scenarios = [
  'change-feed',
  'lending-rules',
  'lost-loans',
  'book-reads',
  'desk',
  'notices',
  'listings',
  'sru',
  'sip2',
] as const;
export type Scenario = (typeof scenarios)[number];

export const usage = `usage: npm run bench -- [options]
  --sizes 10000,1000000   catalogue sizes in books (default; --quick: 10000,100000)
  --quick                 smaller sizes and shorter runs (about 4 minutes)
  --rounds 5              interleaved rounds per throughput scenario (--quick: 3)
  --duration 5            seconds per wrk run (--quick: 3), after a 4 s warm-up
  --connections 32        wrk connections
  --threads 2             wrk threads
  --samples 30            measured requests per listing scenario and size (--quick: 15)
  --keep                  keep the bench_<size> databases and the PGlite directory
  --peer platformatic     also measure Platformatic DB (installed under /tmp, never a dependency)
  --docs docs             where performance.md, performance/*.svg and results.json are written
  --from results.json     measure nothing: rewrite the report from a run's saved figures
  --only change-feed      measure one scenario alone (--rounds applies; --duration to lending-rules)
                          and print its figures; no report. Scenarios: change-feed, lending-rules, lost-loans
  --only book-reads       GET /books/{id} anonymous, as a librarian and as a member, against the baseline
                          on the largest of --sizes (--rounds, --duration, --connections apply)
  --only desk             desk check-out by barcode against a borrow by id, p50 (--rounds applies)
  --only notices          emails/s from the notices sender with 100,000 pending, and its peak RSS
  --only listings         the listing scenarios at every size of --sizes in turns (--samples applies),
                          e.g. --sizes 10000,10000000 for a national library's size
  --only sru              SRU searchRetrieve of 10 MARCXML records against the JSON search for the same
                          words, p50, on the largest of --sizes (--rounds applies)
  --only sip2             SIP2 checkouts/s from 32 terminals against HTTP borrows/s from 32 clients
                          (--rounds applies)
DATABASE_URL names the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres);
the bench creates and drops its own bench_<size> databases there.`;

export class OptionsError extends Error {}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: 'string' },
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      threads: { type: 'string' },
      samples: { type: 'string' },
      keep: { type: 'boolean', default: false },
      peer: { type: 'string' },
      docs: { type: 'string' },
      from: { type: 'string' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return 'help';
  const quick = values.quick ?? false;
  const sizes = (values.sizes ?? (quick ? '10000,100000' : '10000,1000000'))
    .split(',')
    .map((size) => whole('--sizes', size.trim(), 100, 100_000_000));
  if (values.peer !== undefined && values.peer !== 'platformatic') {
    throw new OptionsError(`--peer must be "platformatic", got "${values.peer}"`);
  }
  const only = values.only;
  if (only !== undefined && !isScenario(only)) {
    throw new OptionsError(`--only takes one of ${scenarios.join(', ')}, got "${only}"`);
  }
  return {
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    quick,
    rounds: whole('--rounds', values.rounds ?? (quick ? '3' : '5'), 1, 20),
    duration: whole('--duration', values.duration ?? (quick ? '3' : '5'), 1, 600),
    connections: whole('--connections', values.connections ?? '32', 1, 1000),
    threads: whole('--threads', values.threads ?? '2', 1, 64),
    samples: whole('--samples', values.samples ?? (quick ? '15' : '30'), 3, 80),
    keep: values.keep ?? false,
    peer: values.peer,
    databaseUrl: env.DATABASE_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres',
    docsDir: values.docs ?? 'docs',
    from: values.from,
    only,
  };
}

function isScenario(name: string): name is Scenario {
  return (scenarios as readonly string[]).includes(name);
}

function whole(flag: string, text: string, min: number, max: number): number {
  const number = Number(text);
  if (!/^\d+$/.test(text) || number < min || number > max) {
    throw new OptionsError(`${flag} takes whole numbers from ${min} to ${max}, got "${text}"`);
  }
  return number;
}
