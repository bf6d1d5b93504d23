/**
 * A bulk import killed mid-file (SIGKILL, no chance to clean up) and run again: `catalogue import FILE` of
 * 50,000 ISO 2709 records stopped once its progress passes a third, then the same command again, which says
 * it resumed and ends with exactly one book per record. A seventh of the records carry neither ISBN nor
 * control number, so that only the job's high-water mark, not matching, keeps them from being created twice.
 */
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import marcjs from 'marcjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../../src/db/client.js';
import { type FreshDatabase, freshDatabase } from '../support/database.js';
import { runScript, spawnScript } from '../support/script.js';
import { reportFigure } from './figures.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const RECORDS = 50_000;

/** Twelve digits and their ISBN-13 check digit. */
function isbn13(twelve: string): string {
  const sum = [...twelve].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${twelve}${(10 - (sum % 10)) % 10}`;
}

function iso2709Record(n: number): string {
  const record = new marcjs.Record();
  record.leader = '00000nam a2200000 i 4500';
  const fields: string[][] = [];
  if (n % 7 !== 0) fields.push(['001', `kill${n}`], ['003', 'KILL']);
  // 978-0-306-…: inside the agency's ranges, one per tenth record.
  if (n % 10 === 0) fields.push(['020', '  ', 'a', isbn13(`9780306${String(n / 10).padStart(5, '0')}`)]);
  fields.push(
    ['100', '1 ', 'a', `Writer${n % 500}, Ann`],
    ['245', '10', 'a', `Killed work ${n}`],
    ['264', ' 1', 'c', String(1900 + (n % 120))],
  );
  record.fields = fields;
  return marcjs.Iso2709Formater.format(record);
}

describe('a bulk import killed and run again', () => {
  let fresh: FreshDatabase;
  let directory: string;
  let file: string;
  const settings = () => ({ ...fresh.env, CATALOGUE_SEED: 'none', CATALOGUE_ADMIN_TOKEN: '' });

  beforeAll(async () => {
    fresh = await freshDatabase({ persistent: true, label: 'bulk_kill' });
    directory = await mkdtemp(join(tmpdir(), 'bulk-kill-'));
    file = join(directory, 'records.mrc');
    const records: string[] = [];
    for (let n = 1; n <= RECORDS; n++) records.push(iso2709Record(n));
    await writeFile(file, records.join(''));
  });
  afterAll(async () => {
    await fresh?.drop();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('ends with exactly one book per record', async () => {
    const first = spawnScript(CLI, ['import', file], settings());
    // Not a terminal: the bar prints a line per tenth, `30% 15,000/50,000 records …`.
    let killedAt = 0;
    while (killedAt === 0) {
      if (first.process.exitCode !== null) throw new Error(`the import ended before it was killed:\n${first.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const tenths = [...first.stderr().matchAll(/^(\d+)% ([\d,]+)\/[\d,]+ records/gm)];
      const last = tenths.at(-1);
      if (last && Number(last[1]) >= 30) killedAt = Number((last[2] as string).replaceAll(',', ''));
    }
    first.process.kill('SIGKILL');
    await once(first.process, 'exit');

    const again = await runScript(CLI, ['import', file], settings());
    expect(again.code, again.output).toBe(0);
    expect(again.stdout).toMatch(/resumed after record [\d,]+/);
    expect(again.stdout).toContain(
      `${RECORDS} records: ${RECORDS} imported, 0 matched, 0 refused; 500 authors created`,
    );

    const database = await openDatabase(fresh.target);
    try {
      const [books] = rowsOf<{ n: number; isbns: number }>(
        await database.db.execute(sql`select count(*)::integer as n, count(isbn)::integer as isbns from books`),
      );
      expect(books).toEqual({ n: RECORDS, isbns: RECORDS / 10 });
      const jobs = rowsOf<{ state: string; processed: number; runs: number }>(
        await database.db.execute(sql`select state, processed, runs from import_jobs`),
      );
      expect(jobs).toEqual([{ state: 'done', processed: RECORDS, runs: 2 }]);
    } finally {
      await database.close();
    }
    reportFigure('bulk import killed after', killedAt, 'records', `of ${RECORDS}; resumed to exactly ${RECORDS} books`);
  }, 900_000);
});
