/**
 * The bulk import (`catalogue import FILE`, imports/bulk-import.ts) on both databases: its report is the
 * streaming import's (`POST /imports`) record for record; the same file twice creates nothing new; a run
 * stopped after a batch is finished by running the file again, from its mark, with the report of the whole
 * file; its progress and report are `GET /imports/{id}`, for librarians; bad records are refused with their
 * reasons, and a file that breaks partway fails its job and says so.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { InvalidInput } from '../src/domain/errors.js';
import type { ImportReport } from '../src/domain/imports/report.js';
import { runBulkImport } from '../src/imports/bulk-import.js';
import { formatOfMediaType, type ImportFormat } from '../src/imports/formats.js';
import { addAuthor, addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { expectError } from './support/errors.js';

const MARCXML = formatOfMediaType('application/marcxml+xml') as ImportFormat;
const CSV = formatOfMediaType('text/csv') as ImportFormat;
/** Small batches, so that a file of a dozen records crosses several. */
const BATCH = 3;

interface Fields {
  id?: string;
  source?: string;
  isbn?: string;
  author?: string;
  title?: string;
  year?: string;
}

function record({ id, source, isbn, author, title, year = '1990' }: Fields): string {
  return [
    '<record><leader>00000nam a2200000 i 4500</leader>',
    id ? `<controlfield tag="001">${id}</controlfield>` : '',
    source ? `<controlfield tag="003">${source}</controlfield>` : '',
    isbn ? `<datafield tag="020" ind1=" " ind2=" "><subfield code="a">${isbn}</subfield></datafield>` : '',
    author ? `<datafield tag="100" ind1="1" ind2=" "><subfield code="a">${author}</subfield></datafield>` : '',
    title ? `<datafield tag="245" ind1="1" ind2="0"><subfield code="a">${title}</subfield></datafield>` : '',
    `<datafield tag="264" ind1=" " ind2="1"><subfield code="c">${year}</subfield></datafield>`,
    '</record>',
  ].join('');
}

const collection = (records: Fields[], tail = '</collection>') =>
  `<collection xmlns="http://www.loc.gov/MARC21/slim">${records.map(record).join('\n')}${tail}`;

/** Matches within a batch and across batches, repeats, one author under two spellings, bad records. */
const RECORDS: Fields[] = [
  { id: 'a1', source: 'TEST', isbn: '9780261102217', author: 'Tolkien, J. R. R.,', title: 'The hobbit' },
  { id: 'a2', source: 'TEST', author: 'Nobody, A.' },
  { id: 'a3', source: 'TEST', isbn: '978-0-261-10221-7', author: 'Tolkien, J. R. R.', title: 'The hobbit again' },
  { id: 'a4', source: 'TEST', author: 'TOLKIEN, J.R.R.', title: 'Farmer Giles of Ham' },
  { id: 'a5', source: 'TEST', isbn: '9780261102218', author: 'Le Guin, Ursula K.', title: 'A wizard of Earthsea' },
  { id: 'a1', source: 'TEST', isbn: '9780306406157', author: 'Tolkien, J. R. R.', title: 'The hobbit, a key again' },
  { author: 'Le Guin, Ursula K.', title: 'The dispossessed' },
  { id: 'a8', source: 'TEST', isbn: '9780306406157', author: 'Le Guin, Ursula K.', title: 'The lathe of heaven' },
  { id: 'a9', source: 'TEST', author: 'Le Guin, Ursula K.', title: 'Bad year', year: 'someday' },
  { id: 'a10', source: 'TEST', author: 'Herbert, Frank', title: 'Dune' },
];

/** A report's records without the ids of books, which differ between catalogues. */
function outcomes(entries: readonly object[]) {
  return entries.map((entry) => {
    const { number, status, reason, matched_by } = entry as Record<string, unknown>;
    return { number, status, reason, matched_by };
  });
}

describe('bulk import', () => {
  let t: TestCatalogue;
  let directory: string;
  const file = async (name: string, text: string) => {
    const path = join(directory, name);
    await writeFile(path, text);
    return path;
  };
  const count = async (table: 'books' | 'authors') => {
    const [row] = rowsOf<{ n: number }>(
      await t.database.db.execute(sql`select count(*)::integer as n from ${sql.identifier(table)}`),
    );
    return Number(row?.n);
  };

  beforeAll(async () => {
    t = await openTestCatalogue();
    directory = await mkdtemp(join(tmpdir(), 'bulk-import-'));
  });
  afterAll(async () => {
    await t?.close();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('reports each record as the streaming import does, and the same file twice creates nothing new', async () => {
    const text = collection(RECORDS);
    const path = await file('records.xml', text);
    const first = await runBulkImport(t.database.db, path, { format: MARCXML, batchSize: BATCH });

    const other = await openTestCatalogue();
    let streamed: ImportReport & { data: object[] };
    try {
      const response = await other.request('/imports', {
        method: 'POST',
        headers: { 'Content-Type': 'application/marcxml+xml' },
        body: text,
      });
      expect(response.status).toBe(200);
      streamed = await json(response);
    } finally {
      await other.close();
    }
    const { report } = first;
    expect(report).toMatchObject({
      records: 10,
      imported: 5,
      matched: 2,
      refused: 3,
      authors_created: 3,
      truncated: false,
    });
    expect(outcomes(report.entries)).toEqual(outcomes(streamed.data));
    expect(report.entries.find((e) => e.number === 3)).toMatchObject({ status: 'matched', matched_by: 'isbn' });
    expect(report.entries.find((e) => e.number === 6)).toMatchObject({
      status: 'matched',
      matched_by: 'control_number',
    });
    expect(report.entries.find((e) => e.number === 5)).toMatchObject({ status: 'refused' });
    expect((report.entries.find((e) => e.number === 5) as { reason: string }).reason).toMatch(/^bad ISBN/);
    expect(await count('books')).toBe(5);
    expect(first.job).toMatchObject({ state: 'done', processed: 10, total: 10, runs: 1 });

    const again = await runBulkImport(t.database.db, path, { format: MARCXML, batchSize: BATCH });
    // A record with neither ISBN nor key (7) is created again, as the streaming import does (docs/records.md).
    expect(again.report).toMatchObject({ records: 10, imported: 1, matched: 6, refused: 3, authors_created: 0 });
    expect(again.job.id).not.toBe(first.job.id);
    expect(await count('books')).toBe(6);
  });

  it('finishes a run stopped after a batch from its mark, with the whole file in its report', async () => {
    const records = Array.from({ length: 11 }, (_, i) => ({
      id: `r${i + 1}`,
      source: 'RESUME',
      author: `Writer${i % 4}, Ann`,
      title: `Resumed work ${i + 1}`,
    }));
    const path = await file('resume.xml', collection(records));
    const books = await count('books');
    const stop = new Error('stopped');
    await expect(
      runBulkImport(t.database.db, path, {
        format: MARCXML,
        batchSize: BATCH,
        onProgress: ({ processed }) => {
          if (processed >= BATCH) throw stop;
        },
      }),
    ).rejects.toBe(stop);
    expect(await count('books')).toBe(books + BATCH);

    const resumed = await runBulkImport(t.database.db, path, { format: MARCXML, batchSize: BATCH });
    expect(resumed.resumedAfter).toBe(BATCH);
    expect(resumed.job).toMatchObject({ state: 'done', processed: 11, total: 11, runs: 2 });
    expect(resumed.report).toMatchObject({ records: 11, imported: 11, matched: 0, refused: 0, authors_created: 4 });
    expect(resumed.report.entries.map((e) => e.number)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    expect(await count('books')).toBe(books + 11);
  });

  it('shows a running import’s progress and a finished one’s report at /imports/{id}, to librarians only', async () => {
    const records = Array.from({ length: 7 }, (_, i) => ({
      id: `p${i + 1}`,
      source: 'PROGRESS',
      author: 'Progress, Pat',
      title: i === 4 ? undefined : `Progress ${i + 1}`,
    }));
    const path = await file('progress.xml', collection(records));
    const seen: unknown[] = [];
    let jobId = 0;
    const { job } = await runBulkImport(t.database.db, path, {
      format: MARCXML,
      batchSize: BATCH,
      onProgress: ({ job, processed }) => {
        jobId = job;
        if (processed === BATCH) {
          seen.push(
            t
              .request(`/imports/${job}`, { headers: { Accept: 'application/json' } })
              .then((response) => json(response)),
          );
        }
      },
    });
    expect(jobId).toBe(job.id);
    const [running] = (await Promise.all(seen)) as { state: string; processed: number; total: number }[];
    expect(running).toMatchObject({ processed: expect.any(Number), total: 7 });
    expect(['running', 'done']).toContain(running?.state);
    expect(running?.processed).toBeGreaterThanOrEqual(BATCH);

    const response = await t.request(`/imports/${job.id}`, { headers: { Accept: 'application/json' } });
    expect(response.status).toBe(200);
    const done = await json<{
      state: string;
      processed: number;
      total: number;
      refused: number;
      links: { rel: string; href: string }[];
      data: {
        number: number;
        status: string;
        reason?: string;
        links: { rel: string; href: string; title?: string }[];
      }[];
    }>(response);
    expect(done).toMatchObject({ id: job.id, state: 'done', processed: 7, total: 7, imported: 6, refused: 1 });
    expect(done.data).toHaveLength(7);
    expect(done.data[4]).toMatchObject({ number: 5, status: 'refused', reason: expect.stringMatching(/^no title/) });
    expect(done.data[0]?.links[0]).toMatchObject({ rel: 'book', title: 'Progress 1' });
    expect(done.links).toContainEqual(expect.objectContaining({ rel: 'self', href: `/imports/${job.id}` }));

    await expectError(await t.anonymous.request(`/imports/${job.id}`), 401);
    const member = await addUser(t, 'Mo Member');
    await expectError(await t.as(member.token).request(`/imports/${job.id}`), 403);
    await expectError(await t.request('/imports/999999'), 404);
    await expectError(await t.request('/imports/abc'), 404);
  });

  it('refuses a CSV row whose author_id names nobody, and fails the job of a file that breaks partway', async () => {
    const author = await addAuthor(t, 'Csv Author');
    const csv = await file(
      'rows.csv',
      `title,publication_year,author_id,control_number,source\nKnown author,1999,${author},c1,CSV\n` +
        'Unknown author,1999,999999,c2,CSV\nNo year,,1,c3,CSV\n',
    );
    const { report } = await runBulkImport(t.database.db, csv, { format: CSV, batchSize: BATCH });
    expect(report).toMatchObject({ records: 3, imported: 1, refused: 2 });
    expect(report.entries[1]).toMatchObject({ status: 'refused', reason: 'bad author: no author 999999' });
    expect(report.entries[2]).toMatchObject({ status: 'refused', reason: expect.stringMatching(/^no year/) });

    const records = Array.from({ length: 4 }, (_, i) => ({
      id: `b${i}`,
      source: 'BROKEN',
      author: 'Broken, Bo',
      title: `B ${i}`,
    }));
    const broken = await file('broken.xml', collection(records, '<record><leader>'));
    const failure = await runBulkImport(t.database.db, broken, { format: MARCXML, batchSize: BATCH }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(InvalidInput);
    expect((failure as Error).message).toMatch(/records read before that point are written/);
    const [job] = rowsOf<{ id: number; state: string; error: string }>(
      await t.database.db.execute(sql`select id, state, error from import_jobs order by id desc limit 1`),
    );
    expect(job).toMatchObject({ state: 'failed', error: expect.any(String) });
    const shown = await json<{ state: string; error: string }>(
      await t.request(`/imports/${job?.id}`, { headers: { Accept: 'application/json' } }),
    );
    expect(shown).toMatchObject({ state: 'failed', error: job?.error });
  });

  it('refuses only the record that breaks a rule the checks do not know of, and its batch is written', async () => {
    // A rule of the database the checks have no copy of, as an ISBN another writer takes meanwhile.
    await t.database.db.execute(sql`alter table books add constraint no_second_volume check (title <> 'Vol 2')`);
    try {
      const records = ['Vol 1', 'Vol 2', 'Vol 3'].map((title, i) => ({ id: `v${i}`, source: 'RULE', title }));
      const path = await file('rule.xml', collection(records.map((r) => ({ ...r, author: 'Rule, Ray' }))));
      const { report } = await runBulkImport(t.database.db, path, { format: MARCXML, batchSize: BATCH });
      expect(outcomes(report.entries).map(({ status }) => status)).toEqual(['imported', 'refused', 'imported']);
      const held = rowsOf<{ id: number; title: string }>(
        await t.database.db.execute(sql`select id, title from books where record_source = 'RULE' order by id`),
      );
      expect(held.map((book) => book.title)).toEqual(['Vol 1', 'Vol 3']);
      expect(report.entries.filter((e) => 'book_id' in e).map((e) => ('book_id' in e ? e.book_id : 0))).toEqual(
        held.map((book) => Number(book.id)),
      );
    } finally {
      await t.database.db.execute(sql`alter table books drop constraint no_second_volume`);
    }
  });
});
