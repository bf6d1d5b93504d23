/**
 * @module The bulk import against the streaming one, in the same run, on PostgreSQL: a generated MARC file
 * (ISO 2709 or MARCXML) imported by each into a database of its own, each in a process of its own, whose
 * records per second and resident memory over idle are measured. With `--resume`, the bulk import of the
 * file killed (SIGKILL) halfway and run again, and the books counted: exactly one per record. Targets: at
 * least 20,000 records/s, at most 128 MiB over idle, exactly the file's records as books after a resume.
 *
 *   node --import tsx scripts/bench/bulk-import.ts [--records 100000] [--format iso2709|marcxml]
 *     [--only bulk|streaming|resume] [--resume] [--profile DIR] [--v8-flags "…"] [--memory]
 *
 * The children run with the CLI's V8 flags (`npm run catalogue`), or `--v8-flags`' (`""` for none);
 * `--memory` prints the child's CPU time, and its heap, external and array buffer memory at its peak RSS.
 *
 * The server is `BENCH_DATABASE_URL` (default postgres://postgres@127.0.0.1:5432/postgres); the databases
 * made are dropped at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import marcjs from 'marcjs';
import postgres from 'postgres';
import { openDatabase } from '../../src/db/client.js';
import { prepareDatabase } from '../../src/db/migrate.js';
import { runBulkImport } from '../../src/imports/bulk-import.js';
import { formatOfMediaType } from '../../src/imports/formats.js';
import { runImport } from '../../src/imports/run-import.js';
import { adminStatement } from './catalogues.js';
import { bulkBenchFields } from './imports.js';
import { CLI_FLAGS, memoryOf, repoRoot } from './processes.js';

export const BULK_RECORDS_PER_SECOND_TARGET = 20_000;
export const BULK_GROWTH_MIB_TARGET = 128;

type Mode = 'bulk' | 'streaming';
type FileFormat = 'iso2709' | 'marcxml';

const MEDIA_TYPES: Record<FileFormat, string> = { iso2709: 'application/marc', marcxml: 'application/marcxml+xml' };
const SAMPLE_EVERY_MS = 50;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface BulkFigures {
  mode: Mode;
  records: number;
  books: number;
  seconds: number;
  recordsPerSecond: number;
  idleRssMiB: number;
  peakRssMiB: number;
  growthMiB: number;
}

/** Writes `records` generated records as a file of this format. */
export async function writeBenchFile(path: string, records: number, format: FileFormat): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  if (format === 'marcxml') {
    await write('<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="http://www.loc.gov/MARC21/slim">\n');
  }
  let chunk = '';
  for (let n = 1; n <= records; n++) {
    const record = bulkBenchFields(n);
    chunk += format === 'marcxml' ? marcxml(record) : iso2709(record);
    if (n % 1000 === 0) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  if (format === 'marcxml') await write('</collection>\n');
  out.end();
  await once(out, 'finish');
}

function iso2709(record: { leader: string; fields: string[][] }): string {
  const written = new marcjs.Record();
  written.leader = record.leader;
  written.fields = record.fields;
  return marcjs.Iso2709Formater.format(written);
}

function marcxml({ leader, fields }: { leader: string; fields: string[][] }): string {
  const xmlText = (text: string) => text.replace(/[<>&]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;'));
  let xml = `<record><leader>${leader}</leader>`;
  for (const [tag, ...rest] of fields) {
    if (/^00/.test(tag as string)) {
      xml += `<controlfield tag="${tag}">${xmlText(rest[0] as string)}</controlfield>`;
      continue;
    }
    const [indicators = '  ', ...subfields] = rest;
    xml += `<datafield tag="${tag}" ind1="${indicators[0]}" ind2="${indicators[1]}">`;
    for (let i = 0; i + 1 < subfields.length; i += 2) {
      xml += `<subfield code="${subfields[i]}">${xmlText(subfields[i + 1] as string)}</subfield>`;
    }
    xml += '</datafield>';
  }
  return `${xml}</record>\n`;
}

/** A database made for this run (named with its process id, so that two runs never drop each other's), migrated. */
async function benchDatabase(name: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const drop = () => adminStatement(SERVER_URL, `drop database if exists ${name} with (force)`);
  await drop();
  await adminStatement(SERVER_URL, `create database ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: 'postgres', url: url.href });
  try {
    await prepareDatabase(database, { seedSample: false });
  } finally {
    await database.close();
  }
  return { url: url.href, drop };
}

async function countBooks(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ n: number }[]>`select count(*)::integer as n from books`;
    return row?.n ?? 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** The child's process: this file with `--child`, told to start by a line on stdin once its idle memory is read. */
function child(mode: Mode, url: string, file: string, format: FileFormat, profile?: string): ChildProcess {
  // The CLI's V8 flags, which bound its heap (`npm run catalogue`), unless `--v8-flags` names others.
  const v8 = process.env.BENCH_V8_FLAGS === undefined ? CLI_FLAGS : process.env.BENCH_V8_FLAGS.split(' ');
  const flags = [
    ...v8.filter(Boolean),
    '--import',
    'tsx',
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
  ];
  return spawn(process.execPath, [...flags, 'scripts/bench/bulk-import.ts', '--child', mode, url, file, format], {
    cwd: repoRoot,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
}

function lineOf(process: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const end = text.indexOf('\n');
      if (end === -1) return;
      process.stdout?.off('data', onData);
      resolve(text.slice(0, end));
    };
    process.stdout?.on('data', onData);
    process.once('exit', (code) => reject(new Error(`the child exited (${code}) before answering`)));
  });
}

/** One import in a process of its own: seconds, and its memory idle and at its peak. */
export async function measureBulk(
  mode: Mode,
  records: number,
  file: string,
  format: FileFormat,
  profile?: string,
): Promise<BulkFigures> {
  const database = await benchDatabase(`bench_bulk_${mode}_${process.pid}`);
  try {
    const running = child(mode, database.url, file, format, profile);
    await lineOf(running);
    const idle = memoryOf(running.pid as number).rss;
    let peak = idle;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, memoryOf(running.pid as number).rss);
      } catch {}
    }, SAMPLE_EVERY_MS);
    const started = performance.now();
    const done = lineOf(running);
    running.stdin?.write('go\n');
    const answer = await done;
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    await once(running, 'exit');
    if (answer !== 'done') throw new Error(`the ${mode} import answered ${answer}`);
    const books = await countBooks(database.url);
    const mib = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
    return {
      mode,
      records,
      books,
      seconds: Math.round(seconds * 100) / 100,
      recordsPerSecond: Math.round(records / seconds),
      idleRssMiB: mib(idle),
      peakRssMiB: mib(peak),
      growthMiB: mib(peak - idle),
    };
  } finally {
    await database.drop();
  }
}

/** The bulk import killed (SIGKILL) once half the file is written, run again: the books it ends with. */
export async function measureResume(
  records: number,
  file: string,
  format: FileFormat,
): Promise<{
  records: number;
  killedAt: number;
  books: number;
  runs: number;
  seconds: number;
  /** Indexes of `books` and `copies` after the resumed run, and how many are valid and none left set aside. */
  indexes: { all: number; valid: number; setAside: number };
}> {
  const database = await benchDatabase(`bench_bulk_resume_${process.pid}`);
  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  try {
    const started = performance.now();
    const first = child('bulk', database.url, file, format);
    await lineOf(first);
    first.stdin?.write('go\n');
    let killedAt = 0;
    while (killedAt < records / 2) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const [job] = await sql<{ processed: number }[]>`select processed from import_jobs`;
      killedAt = job?.processed ?? 0;
      if (first.exitCode !== null) throw new Error('the import ended before it could be killed');
    }
    first.kill('SIGKILL');
    await once(first, 'exit');
    const [stopped] = await sql<{ processed: number }[]>`select processed from import_jobs`;
    const second = child('bulk', database.url, file, format);
    await lineOf(second);
    const done = lineOf(second);
    second.stdin?.write('go\n');
    if ((await done) !== 'done') throw new Error('the resumed import failed');
    await once(second, 'exit');
    const [job] = await sql<{ runs: number; state: string }[]>`select runs, state from import_jobs`;
    if (job?.state !== 'done') throw new Error(`the job is ${job?.state}, not done`);
    return {
      records,
      killedAt: stopped?.processed ?? killedAt,
      books: await countBooks(database.url),
      runs: job.runs,
      indexes: await indexesOf(sql),
      seconds: Math.round((performance.now() - started) / 10) / 100,
    };
  } finally {
    await sql.end({ timeout: 5 });
    await database.drop();
  }
}

async function indexesOf(sql: postgres.Sql): Promise<{ all: number; valid: number; setAside: number }> {
  const [row] = await sql<{ all: number; valid: number; set_aside: number }[]>`
    select count(*)::integer as all, count(*) filter (where indisvalid)::integer as valid,
      (select count(*)::integer from import_jobs where set_aside_indexes is not null) as set_aside
    from pg_index where indrelid in ('books'::regclass, 'copies'::regclass)`;
  return { all: row?.all ?? 0, valid: row?.valid ?? 0, setAside: row?.set_aside ?? 0 };
}

/** In the child: the import itself, once told to go. */
async function runChild(mode: Mode, url: string, file: string, format: FileFormat): Promise<void> {
  const importFormat = formatOfMediaType(MEDIA_TYPES[format]);
  if (!importFormat) throw new Error(`no format ${format}`);
  const database = await openDatabase({ kind: 'postgres', url });
  try {
    process.stdout.write('ready\n');
    await once(process.stdin, 'data');
    const peak = { rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
    const sampling = process.env.BENCH_MEMORY
      ? setInterval(() => {
          const now = process.memoryUsage();
          if (now.rss > peak.rss) Object.assign(peak, now);
        }, 50)
      : undefined;
    const started = performance.now();
    const at = () => ((performance.now() - started) / 1000).toFixed(1);
    const phases: string[] = [];
    if (mode === 'bulk')
      await runBulkImport(database.db, file, {
        format: importFormat,
        // When the indexes were set aside, and when the last was built: the build's share of the run.
        onProgress: ({ processed, total }) => {
          if (processed === total) phases.push(`records at ${at()} s`);
        },
        onIndexes: ({ phase, done, total }) => {
          if (phase !== 'built' || done === total) phases.push(`${phase} ${total} at ${at()} s`);
        },
      });
    else await runImport(database.db, createReadStream(file), { format: importFormat });
    if (sampling) {
      clearInterval(sampling);
      const mib = (n: number) => (n / 1048576).toFixed(1);
      const cpu = process.cpuUsage();
      process.stderr.write(
        `${phases.join(', ')}${phases.length ? ', ' : ''}end at ${at()} s; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s; at peak RSS: ${Object.entries(
          peak,
        )
          .map(([k, v]) => `${k} ${mib(v)}`)
          .join(', ')} MiB\n`,
      );
    }
    process.stdout.write('done\n');
  } finally {
    await database.close();
    process.stdin.destroy();
  }
}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === '--child') {
    await runChild(argv[1] as Mode, argv[2] as string, argv[3] as string, argv[4] as FileFormat);
    return;
  }
  const option = (name: string) => {
    const at = argv.indexOf(name);
    return at === -1 ? undefined : argv[at + 1];
  };
  const records = Number(option('--records') ?? 100_000);
  const format = (option('--format') ?? 'iso2709') as FileFormat;
  // `--only resume`: the resume check alone (with `--resume`).
  const only = option('--only') as Mode | 'resume' | undefined;
  const profile = option('--profile');
  // Told to the children through their environment.
  const v8Flags = option('--v8-flags');
  if (v8Flags !== undefined) process.env.BENCH_V8_FLAGS = v8Flags;
  if (argv.includes('--memory')) process.env.BENCH_MEMORY = '1';
  const directory = mkdtempSync(join(tmpdir(), 'bench-bulk-'));
  const file = join(directory, `records.${format === 'marcxml' ? 'xml' : 'mrc'}`);
  try {
    await writeBenchFile(file, records, format);
    const figures: BulkFigures[] = [];
    for (const mode of ['streaming', 'bulk'] as const) {
      if (only && only !== mode) continue;
      const measured = await measureBulk(mode, records, file, format, profile);
      figures.push(measured);
      console.log(
        `${mode}: ${records.toLocaleString('en')} ${format} records in ${measured.seconds} s, ` +
          `${measured.recordsPerSecond.toLocaleString('en')} records/s, ${measured.books.toLocaleString('en')} books, ` +
          `RSS idle ${measured.idleRssMiB} MiB, +${measured.growthMiB} MiB`,
      );
    }
    const [streaming, bulk] = figures;
    if (streaming && bulk)
      console.log(`bulk/streaming: ×${(bulk.recordsPerSecond / streaming.recordsPerSecond).toFixed(2)}`);
    if (argv.includes('--resume')) {
      const resumed = await measureResume(records, file, format);
      const exact = resumed.books === records;
      console.log(
        `resume: killed after ${resumed.killedAt.toLocaleString('en')} of ${records.toLocaleString('en')} records, ` +
          `run again: ${resumed.books.toLocaleString('en')} books (${exact ? 'exact' : 'WRONG'}), ${resumed.runs} runs, ${resumed.seconds} s; ` +
          `indexes of books and copies ${resumed.indexes.valid} valid of ${resumed.indexes.all}, ${resumed.indexes.setAside} jobs with indexes set aside`,
      );
      const { all, valid, setAside } = resumed.indexes;
      if (!exact || valid !== all || setAside > 0) process.exitCode = 1;
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

await main(process.argv.slice(2));
