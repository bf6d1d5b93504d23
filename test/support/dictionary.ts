/**
 * The search dictionary (`search_words`) as it is, and as it would be counted again from every title and
 * name: a test that writes, or migrates, expects the two to be equal.
 */
import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../src/db/client.js';

export interface WordUses {
  word: string;
  in_titles: number;
  in_names: number;
}

export async function dictionaryAndRecount(database: Database): Promise<{ kept: WordUses[]; recount: WordUses[] }> {
  const db = database.db;
  const kept = rowsOf<WordUses>(
    await db.execute(sql`select word, in_titles, in_names from search_words order by word`),
  );
  const recount = rowsOf<WordUses>(
    await db.execute(sql`
      select word, sum(in_titles)::int as in_titles, sum(in_names)::int as in_names from (
        select word, 1 as in_titles, 0 as in_names from books, unnest(catalogue_words(title)) as word
        union all
        select word, 0, 1 from authors, unnest(catalogue_words(name)) as word
      ) as uses group by word order by word`),
  );
  // Plain objects: a driver's row may carry a prototype that equality compares.
  return { kept: kept.map((row) => ({ ...row })), recount: recount.map((row) => ({ ...row })) };
}
