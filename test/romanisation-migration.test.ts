/**
 * Migration 0021 (romanisation_marks) on a database made with the migrations before it, on PGlite and (with
 * DATABASE_URL) PostgreSQL: books and authors written with and without romanisation's marks, then the
 * database brought up to date as a server does at start-up. Every book and author is kept as it was, with no
 * event in the change feed; their stored readings (search vectors, exact keys, words) are read again, so the
 * old books are found by their words with the marks left out, and the dictionary is their words exactly.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { rowsOf } from '../src/db/client.js';
import { prepareDatabase } from '../src/db/migrate.js';
import { ChangeStreams, changeStreamOptions } from '../src/http/change-streams.js';
import { json } from './support/catalogue.js';
import { dictionaryAndRecount } from './support/dictionary.js';
import { type MigratedBefore, migratedBefore } from './support/migrated-before.js';
import { LIBRARIAN_TOKEN } from './support/tokens.js';

describe('migrating a database made before romanisation’s marks were left out', () => {
  let old: MigratedBefore;
  let changeStreams: ChangeStreams;
  let app: ReturnType<typeof createApp>;
  const ids: Record<string, number> = {};
  const rowsBefore = sql`select b.id, b.title, b.author_id, b.version, b.author_name, b.copies_total, a.name, a.version as author_version
    from books b join authors a on a.id = b.author_id order by b.id`;
  let before: Record<string, unknown>[] = [];
  let eventsBefore: Record<string, unknown>[] = [];

  beforeAll(async () => {
    old = await migratedBefore('0021_romanisation_marks');
    const [ibnSina, tolstoy] = await old.run<{ id: number }>(
      sql`insert into authors (name) values ('Ibn Sīnā'), ('Lev Nikolaevich Tolstoĭ'), ('ʿUmar Khayyām') returning id`,
    );
    const books = await old.run<{ id: number }>(sql`insert into books (title, publication_year, author_id) values
      ('Kitāb al-shifāʼ', 1027, ${ibnSina?.id}), ('al-Qānūn fī al-ṭibb', 1025, ${ibnSina?.id}),
      ('Voĭna i mir', 1869, ${tolstoy?.id}), ('Detstvo, otrochestvo, i i͡unostʹ', 1857, ${tolstoy?.id})
      returning id`);
    const [shifa, qanun, voina, detstvo] = books.map((book) => book.id) as [number, number, number, number];
    Object.assign(ids, { shifa, qanun, voina, detstvo });
    // A rename and a retitling, so that versions and events are not all first ones.
    await old.run(sql`update authors set name = 'ʻAlī ibn Sīnā' where id = ${ibnSina?.id}`);
    await old.run(sql`update books set title = 'Kitāb al-shifāʼ: al-Ilāhīyāt' where id = ${ids.shifa}`);
    before = await old.run(rowsBefore);
    eventsBefore = await old.run(sql`select id, type, resource_id from changes order by id`);
    // What the marks made of the words before: an apostrophe inside them, which no search reached.
    expect(await old.run(sql`select word from search_words where word like '%''%' order by word`)).toEqual([
      { word: "'ali" },
      { word: "iunost'" },
      { word: "shifa'" },
    ]);

    await prepareDatabase(old.database, { seedSample: false, adminToken: LIBRARIAN_TOKEN });
    changeStreams = new ChangeStreams(old.database, changeStreamOptions(defaultConfig.changes));
    app = createApp({ changeStreams, database: old.database, rateLimits: false });
  });

  afterAll(async () => {
    changeStreams?.close();
    await old?.close();
  });

  const found = async (path: string) =>
    (await json<{ id: number }[]>(await app.request(path))).map((resource) => resource.id);
  const search = (query: string) => found(`/books?query=${encodeURIComponent(query)}&fields=id`);

  it('keeps every book and author as they were, and writes no event', async () => {
    expect(await old.run(rowsBefore)).toEqual(before);
    expect(await old.run(sql`select id, type, resource_id from changes order by id`)).toEqual(eventsBefore);
  });

  it('reads every title and name again: the old books are found with the marks left out', async () => {
    expect(await search('shifa')).toEqual([ids.shifa]);
    expect(await search('Kitāb al-shifāʼ: al-Ilāhīyāt')).toEqual([ids.shifa]);
    expect(await search('iunost')).toEqual([ids.detstvo]);
    expect(await search('voina i mir')).toEqual([ids.voina]);
    expect(await search('qanun')).toEqual([ids.qanun]);
    expect(await search('ali sina')).toEqual([ids.shifa, ids.qanun]);
    const [author] = await old.run<{ id: number }>(sql`select id from authors where name like '%Sīnā'`);
    expect(await found('/authors?query=ali&fields=id')).toEqual([author?.id]);
    // The exact key and the words suggestions rank by are read again too.
    expect(await old.run(sql`select exact_key, title_words from books where id = ${ids.detstvo}`)).toEqual([
      { exact_key: 'detstvo otrochestvo _ iunost', title_words: 'detstvo otrochestvo i iunost' },
    ]);
    expect(await old.run(sql`select name_words from authors where id = ${author?.id}`)).toEqual([
      { name_words: 'ali ibn sina' },
    ]);
  });

  it('fills the dictionary again with exactly the words of every title and name, and none with a mark', async () => {
    const { kept, recount } = await dictionaryAndRecount(old.database);
    expect(kept).toEqual(recount);
    expect(kept).toContainEqual({ word: 'shifa', in_titles: 1, in_names: 0 });
    expect(kept).toContainEqual({ word: 'ali', in_titles: 0, in_names: 1 });
    expect(await old.run(sql`select word from search_words where word ~ '[''ʼʻʹ]'`)).toEqual([]);
  });

  it('compares imported names without the marks, by the index', async () => {
    // An import looks its authors up by this key (src/db/queries/imports.ts); the index holds it read again.
    const named = (name: string) =>
      old.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        return rowsOf<{ name: string }>(
          await tx.execute(sql`select name from authors where catalogue_name_key(name) = catalogue_name_key(${name})`),
        );
      });
    expect(await named('Umar Khayyam')).toEqual([{ name: 'ʿUmar Khayyām' }]);
    expect(await named('Ali ibn Sina')).toEqual([{ name: 'ʻAlī ibn Sīnā' }]);
  });
});
