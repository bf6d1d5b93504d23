/**
 * Migration 0013 (search_words) on a database made with the schema before it, on PGlite and (with
 * DATABASE_URL) PostgreSQL: migrations 0000..0012 build it, authors and books go in as that schema had
 * them, then the database is brought up to date as a server does at start-up. Every book and author is
 * kept, the dictionary holds their words, and the old books are found as before and forgivingly.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { type Database, openDatabase, openPglite, rowsOf } from '../src/db/client.js';
import { prepareDatabase } from '../src/db/migrate.js';
import { defaultAccessPolicy } from '../src/domain/policy.js';
import { ChangeStreams } from '../src/http/change-streams.js';
import { json } from './support/catalogue.js';
import { createPostgresDatabase, type PostgresDatabase } from './support/database.js';
import { LIBRARIAN_TOKEN } from './support/tokens.js';

/** The last migration before the search dictionary. */
const BEFORE_SEARCH_WORDS = 12;

describe('migrating a database made before forgiving search', () => {
  let folder: string;
  let database: Database;
  let server: PostgresDatabase | undefined;
  let changeStreams: ChangeStreams;
  let app: ReturnType<typeof createApp>;
  let before: { id: number; title: string; author_id: number; version: number }[] = [];

  const run = async <T = Record<string, unknown>>(statement: ReturnType<typeof sql>) =>
    rowsOf<T>(await database.db.execute(statement));

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'catalogue-before-search-words-'));
    await cp('drizzle', folder, { recursive: true });
    const journalFile = join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalFile, 'utf8'));
    journal.entries = journal.entries.filter((entry: { idx: number }) => entry.idx <= BEFORE_SEARCH_WORDS);
    expect(journal.entries).toHaveLength(BEFORE_SEARCH_WORDS + 1);
    await writeFile(journalFile, JSON.stringify(journal));

    if (process.env.DATABASE_URL) {
      server = await createPostgresDatabase(process.env.DATABASE_URL, 'search_migration');
      database = await openDatabase({ kind: 'postgres', url: server.url });
      await migratePostgres(database.db as unknown as ReturnType<typeof drizzlePostgres>, {
        migrationsFolder: folder,
      });
    } else {
      database = await openPglite({ kind: 'pglite', dataDir: 'memory://' });
      await migratePglite(database.db as unknown as ReturnType<typeof drizzlePglite>, { migrationsFolder: folder });
    }
    expect(await run(sql`select to_regclass('search_words') as words`)).toEqual([{ words: null }]);

    const authors = await run<{ id: number }>(
      sql`insert into authors (name) values ('Halldór Laxness'), ('Émile Zola') returning id`,
    );
    await run(sql`insert into books (title, publication_year, author_id) values
      ('Independent People', 1934, ${authors[0]?.id}), ('The Fish Can Sing', 1957, ${authors[0]?.id}),
      ('Germinal', 1885, ${authors[1]?.id}), ('Thérèse Raquin', 1867, ${authors[1]?.id})`);
    await run(sql`update books set title = 'Thérèse Raquin' where title = 'Thérèse Raquin'`);
    before = await run(sql`select id, title, author_id, version from books order by id`);

    await prepareDatabase(database, { seedSample: false, adminToken: LIBRARIAN_TOKEN });
    changeStreams = new ChangeStreams(database);
    app = createApp({ changeStreams, database, access: defaultAccessPolicy, rateLimits: false });
  });

  afterAll(async () => {
    changeStreams?.close();
    await database?.close();
    await server?.drop();
    if (folder) await rm(folder, { recursive: true, force: true });
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
