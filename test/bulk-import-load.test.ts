/**
 * A large bulk import's load with the secondary indexes of `books` and `copies` set aside (`indexes:
 * 'rebuild'`, db/queries/set-aside-indexes.ts), on both databases: the report is the one a load with its
 * indexes gives; the indexes matching and uniqueness rest on stay; a load stopped midway leaves the dropped
 * ones listed in its job's row, and running the same file again, or a server's start, builds every one of
 * them, valid and as defined before, with exactly the file's books.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { restoreSetAsideIndexes } from '../src/db/queries/set-aside-indexes.js';
import { type IndexProgress, runBulkImport } from '../src/imports/bulk-import.js';
import { formatOfMediaType, type ImportFormat } from '../src/imports/formats.js';
import { json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

const MARCXML = formatOfMediaType('application/marcxml+xml') as ImportFormat;
const BATCH = 4;

function record(n: number, prefix: string): string {
  return [
    '<record><leader>00000nam a2200000 i 4500</leader>',
    `<controlfield tag="001">${prefix}${n}</controlfield><controlfield tag="003">LOAD</controlfield>`,
    `<datafield tag="100" ind1="1" ind2=" "><subfield code="a">Loader${n % 3}, Ann</subfield></datafield>`,
    `<datafield tag="245" ind1="1" ind2="0"><subfield code="a">Loaded ${prefix} work ${n}</subfield></datafield>`,
    '<datafield tag="264" ind1=" " ind2="1"><subfield code="c">1999</subfield></datafield>',
    '</record>',
  ].join('');
}

const collection = (count: number, prefix: string) =>
  `<collection xmlns="http://www.loc.gov/MARC21/slim">${Array.from({ length: count }, (_, i) => record(i + 1, prefix)).join('\n')}</collection>`;

/** What `GET /imports/{id}` says of where a job stands. */
interface JobState {
  state: string;
  phase: string;
  processed: number;
  total: number | null;
  indexes_built: number;
  indexes_total: number;
  runs: number;
}

interface IndexRow {
  name: string;
  definition: string;
  valid: boolean;
}

describe('bulk import with its indexes set aside', () => {
  let t: TestCatalogue;
  let directory: string;
  let before: IndexRow[];
  const indexes = async () =>
    rowsOf<IndexRow>(
      await t.database.db.execute(sql`
        select c.relname as name, pg_get_indexdef(i.indexrelid) as definition, i.indisvalid as valid
        from pg_index i join pg_class c on c.oid = i.indexrelid
        where i.indrelid in ('books'::regclass, 'copies'::regclass)
        order by c.relname`),
    );
  const count = async (where: string) => {
    const [row] = rowsOf<{ n: number; keys: number }>(
      await t.database.db.execute(
        sql`select count(*)::integer as n, count(distinct record_control_number)::integer as keys from books where record_control_number like ${where}`,
      ),
    );
    return row;
  };
  const setAside = async () => {
    const rows = rowsOf<{ set_aside_indexes: { name: string }[] | null }>(
      await t.database.db.execute(sql`select set_aside_indexes from import_jobs where set_aside_indexes is not null`),
    );
    return rows.flatMap((row) => (row.set_aside_indexes ?? []).map((index) => index.name)).sort();
  };
  const jobOf = async (id: number) =>
    json<JobState>(await t.request(`/imports/${id}`, { headers: { Accept: 'application/json' } }));
  const file = async (name: string, text: string) => {
    const path = join(directory, name);
    await writeFile(path, text);
    return path;
  };

  beforeAll(async () => {
    t = await openTestCatalogue();
    directory = await mkdtemp(join(tmpdir(), 'bulk-load-'));
    before = await indexes();
  });
  afterAll(async () => {
    await t?.close();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('loads with the secondary indexes dropped, keeps those matching rests on, and builds them again', async () => {
    const path = await file('load.xml', collection(10, 'a'));
    const phases: IndexProgress[] = [];
    const { report } = await runBulkImport(t.database.db, path, {
      format: MARCXML,
      batchSize: BATCH,
      indexes: 'rebuild',
      onIndexes: (progress) => {
        phases.push(progress);
      },
    });
    expect(report).toMatchObject({ records: 10, imported: 10, matched: 0, refused: 0, authors_created: 3 });
    const dropped = phases[0]?.total ?? 0;
    expect(phases[0]).toMatchObject({ phase: 'set aside' });
    expect(dropped).toBeGreaterThan(10);
    expect(phases.at(-1)).toEqual({ phase: 'built', done: dropped, total: dropped });
    expect(await indexes()).toEqual(before);
    expect(await setAside()).toEqual([]);

    // The same file again matches every record by its key, as with the indexes kept.
    const again = await runBulkImport(t.database.db, path, { format: MARCXML, batchSize: BATCH, indexes: 'rebuild' });
    expect(again.report).toMatchObject({ records: 10, imported: 0, matched: 10 });
    expect(await count('a%')).toEqual({ n: 10, keys: 10 });
    const found = await json<{ data: unknown[] }>(await t.request('/books?query=loaded%20a%20work&per_page=50'));
    expect(found.data.length).toBe(10);
  });

  it('says over HTTP which phase a load is in and how many of its indexes are built, each as it is', async () => {
    const path = await file('phases.xml', collection(2 * BATCH + 1, 'f'));
    const stop = new Error('stopped');
    const seen: JobState[] = [];
    let id = 0;
    // Stopped after its first batch: the job shows where it stopped.
    await expect(
      runBulkImport(t.database.db, path, {
        format: MARCXML,
        batchSize: BATCH,
        indexes: 'rebuild',
        onProgress: async ({ job, processed }) => {
          id = job;
          seen.push(await jobOf(job));
          if (processed >= BATCH) throw stop;
        },
      }),
    ).rejects.toBe(stop);
    const dropped = (await setAside()).length;
    expect(dropped).toBeGreaterThan(10);
    const starting = { state: 'running', phase: 'writing_records', indexes_built: 0, indexes_total: dropped };
    expect(seen).toMatchObject([
      { ...starting, processed: 0, total: 2 * BATCH + 1, runs: 1 },
      { ...starting, processed: BATCH },
    ]);
    expect(await jobOf(id)).toMatchObject({ ...starting, processed: BATCH });

    // The same file again: its records, then each index built, the row read after each step.
    seen.length = 0;
    const { job } = await runBulkImport(t.database.db, path, {
      format: MARCXML,
      batchSize: BATCH,
      indexes: 'rebuild',
      onProgress: async () => {
        seen.push(await jobOf(id));
      },
      onIndexes: async ({ phase }) => {
        if (phase === 'built') seen.push(await jobOf(id));
      },
    });
    expect(job.id).toBe(id);
    const steps = seen.map(({ phase, processed, indexes_built, indexes_total }) => [
      phase,
      processed,
      indexes_built,
      indexes_total,
    ]);
    expect(steps).toEqual([
      ['writing_records', BATCH, 0, dropped],
      ['writing_records', 2 * BATCH, 0, dropped],
      ['writing_records', 2 * BATCH + 1, 0, dropped],
      ...Array.from({ length: dropped + 1 }, (_, built) => ['building_indexes', 2 * BATCH + 1, built, dropped]),
    ]);
    expect(seen.every((state) => state.state === 'running' && state.runs === 2)).toBe(true);
    expect(await jobOf(id)).toMatchObject({
      state: 'done',
      phase: 'finished',
      processed: 2 * BATCH + 1,
      indexes_built: dropped,
      indexes_total: dropped,
    });

    // Without indexes set aside: none to build, and no such phase.
    seen.length = 0;
    const kept = await runBulkImport(t.database.db, await file('kept.xml', collection(2, 'g')), {
      format: MARCXML,
      indexes: 'keep',
      onProgress: async ({ job }) => {
        seen.push(await jobOf(job));
      },
    });
    expect(seen.map((state) => state.phase)).toEqual(['writing_records', 'writing_records']);
    expect(await jobOf(kept.job.id)).toMatchObject({
      state: 'done',
      phase: 'finished',
      indexes_built: 0,
      indexes_total: 0,
    });
    // The same state in every format: HAL's properties, the HTML view's fields.
    const hal = await json<JobState>(
      await t.request(`/imports/${id}`, { headers: { Accept: 'application/hal+json' } }),
    );
    expect(hal).toMatchObject({ phase: 'finished', indexes_built: dropped, indexes_total: dropped });
    const html = await (await t.request(`/imports/${id}`, { headers: { Accept: 'text/html' } })).text();
    expect(html).toContain('<dd data-field="phase">finished</dd>');
    expect(html).toContain(`<dd data-field="indexes_built">${dropped}</dd>`);
  });

  it('a load stopped midway is finished by the same file, with every index built and valid', async () => {
    const path = await file('stopped.xml', collection(13, 'b'));
    const stop = new Error('stopped');
    await expect(
      runBulkImport(t.database.db, path, {
        format: MARCXML,
        batchSize: BATCH,
        indexes: 'rebuild',
        onProgress: ({ processed }) => {
          if (processed >= 2 * BATCH) throw stop;
        },
      }),
    ).rejects.toBe(stop);
    const missing = await setAside();
    expect(missing).toContain('books_search_idx');
    expect(missing).not.toContain('books_isbn_key');
    expect(missing).not.toContain('books_record_key');
    const present = (await indexes()).map((index) => index.name);
    for (const name of missing) expect(present).not.toContain(name);
    // Readers are answered meanwhile, without the indexes.
    const meanwhile = await json<{ data: unknown[] }>(await t.request('/books?query=loaded%20b%20work&per_page=50'));
    expect(meanwhile.data.length).toBe(2 * BATCH);

    // `auto`: a run of the same file whose last run had its indexes set aside loads the same way.
    const resumed = await runBulkImport(t.database.db, path, { format: MARCXML, batchSize: BATCH });
    expect(resumed.resumedAfter).toBe(2 * BATCH);
    expect(resumed.report).toMatchObject({ records: 13, imported: 13, matched: 0, refused: 0 });
    expect(await count('b%')).toEqual({ n: 13, keys: 13 });
    const after = await indexes();
    expect(after).toEqual(before);
    expect(after.every((index) => index.valid)).toBe(true);
    expect(await setAside()).toEqual([]);
  });

  it('a stopped load’s indexes are built by a server’s start, or by another file’s run', async () => {
    const stopped = async (prefix: string) => {
      const stop = new Error('stopped');
      const path = await file(`${prefix}.xml`, collection(9, prefix));
      let id = 0;
      await expect(
        runBulkImport(t.database.db, path, {
          format: MARCXML,
          batchSize: BATCH,
          indexes: 'rebuild',
          onProgress: ({ job, processed }) => {
            id = job;
            if (processed >= BATCH) throw stop;
          },
        }),
      ).rejects.toBe(stop);
      expect(await setAside()).not.toEqual([]);
      return id;
    };
    const c = await stopped('c');
    const dropped = (await setAside()).length;
    await restoreSetAsideIndexes(t.database.db);
    expect(await indexes()).toEqual(before);
    expect(await setAside()).toEqual([]);
    // Its indexes built by another than its run: the job still shows the phase its run stopped in.
    expect(await jobOf(c)).toMatchObject({
      state: 'running',
      phase: 'writing_records',
      processed: BATCH,
      indexes_built: dropped,
      indexes_total: dropped,
    });

    await stopped('d');
    const other = await file('other.xml', collection(5, 'e'));
    const { report } = await runBulkImport(t.database.db, other, {
      format: MARCXML,
      batchSize: BATCH,
      indexes: 'keep',
    });
    expect(report).toMatchObject({ records: 5, imported: 5 });
    expect(await indexes()).toEqual(before);
    expect(await setAside()).toEqual([]);
    expect(await count('c%')).toEqual({ n: BATCH, keys: BATCH });
  });
});
