/**
 * Migration 0013 (search_words) on a database made with the schema before it, on PGlite and (with
 * DATABASE_URL) PostgreSQL: the migrations before it build it, authors and books go in as that schema had
 * them, then the database is brought up to date as a server does at start-up. Every book and author is
 * kept, the dictionary holds their words, and the old books are found as before and forgivingly.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { defaultConfig } from '../src/config.js';
import { prepareDatabase } from '../src/db/migrate.js';
import { ChangeStreams, changeStreamOptions } from '../src/http/change-streams.js';
import { json } from './support/catalogue.js';
import { type MigratedBefore, migratedBefore } from './support/migrated-before.js';
import { LIBRARIAN_TOKEN } from './support/tokens.js';

describe('migrating a database made before forgiving search', () => {
  let old: MigratedBefore;
  let changeStreams: ChangeStreams;
  let app: ReturnType<typeof createApp>;
  let before: { id: number; title: string; author_id: number; version: number }[] = [];

  const run = <T = Record<string, unknown>>(statement: ReturnType<typeof sql>) => old.run<T>(statement);

  beforeAll(async () => {
    old = await migratedBefore('0013_search_words');
    expect(await run(sql`select to_regclass('search_words') as words`)).toEqual([{ words: null }]);

    const authors = await run<{ id: number }>(
      sql`insert into authors (name) values ('Halldór Laxness'), ('Émile Zola') returning id`,
    );
    await run(sql`insert into books (title, publication_year, author_id) values
      ('Independent People', 1934, ${authors[0]?.id}), ('The Fish Can Sing', 1957, ${authors[0]?.id}),
      ('Germinal', 1885, ${authors[1]?.id}), ('Thérèse Raquin', 1867, ${authors[1]?.id})`);
    await run(sql`update books set title = 'Thérèse Raquin' where title = 'Thérèse Raquin'`);
    before = await run(sql`select id, title, author_id, version from books order by id`);

    await prepareDatabase(old.database, { seedSample: false, adminToken: LIBRARIAN_TOKEN });
    changeStreams = new ChangeStreams(old.database, changeStreamOptions(defaultConfig.changes));
    app = createApp({ changeStreams, database: old.database, rateLimits: false });
  });

  afterAll(async () => {
    changeStreams?.close();
    await old?.close();
  });

  const found = async (query: string) =>
    (await json<{ id: number }[]>(await app.request(`/books?query=${encodeURIComponent(query)}&fields=id`))).map(
      (book) => book.id,
    );

  it('keeps every book as it was', async () => {
    expect(await run(sql`select id, title, author_id, version from books order by id`)).toEqual(before);
    expect(await run(sql`select count(*)::int as n from authors`)).toEqual([{ n: 2 }]);
  });

  it('fills the dictionary with the words of every title and name, folded', async () => {
    const words = await run<{ word: string; in_titles: number; in_names: number }>(
      sql`select word, in_titles, in_names from search_words order by word`,
    );
    expect(words).toContainEqual({ word: 'therese', in_titles: 1, in_names: 0 });
    expect(words).toContainEqual({ word: 'halldor', in_titles: 0, in_names: 1 });
    expect(words).toContainEqual({ word: 'the', in_titles: 1, in_names: 0 });
    expect(words.map((w) => w.word)).not.toContain('Thérèse');
  });

  it('finds the old books as before, and with folded accents and corrected words', async () => {
    const [people, fish, germinal, therese] = before.map((book) => book.id);
    expect(await found('independent people')).toEqual([people]);
    expect(await found('germinal')).toEqual([germinal]);
    expect(await found('therese')).toEqual([therese]);
    expect(await found('halldor')).toEqual([people, fish]);
    expect(await found('germinl')).toEqual([germinal]);
    const authors = await json<{ id: number }[]>(await app.request('/authors?query=emile&fields=id'));
    expect(authors).toHaveLength(1);
  });
});
