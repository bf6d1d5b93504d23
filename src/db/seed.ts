/** @module Loads the sample catalogue into a database that holds no authors and no books yet. */
import { sql } from 'drizzle-orm';
import { isbn13Of } from '../domain/identifiers.js';
import { type Db, rowsOf } from './client.js';
import { sampleCatalogue } from './sample-catalogue.js';
import { authors, books } from './schema/index.js';

/** Returns whether it loaded anything; an existing catalogue is never touched. */
export async function loadSampleCatalogue(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(
      sql`select exists (select 1 from ${authors}) or exists (select 1 from ${books}) as any`,
    );
    const [existing] = rowsOf<{ any: boolean }>(result);
    if (existing?.any) return false;
    const inserted = await tx
      .insert(authors)
      .values(sampleCatalogue.map(({ name }) => ({ name })))
      .returning({ id: authors.id, name: authors.name });
    const idByName = new Map(inserted.map((a) => [a.name, a.id]));
    await tx.insert(books).values(
      sampleCatalogue.flatMap((author) =>
        author.books.map(([title, year, record]) => ({
          title,
          publicationYear: year,
          authorId: idByName.get(author.name) as number,
          language: author.language,
          // Stored as every ISBN is: ISBN-13 (the sample's are printed ISBN-10s).
          ...(record && { isbn: isbn13Of(record.isbn), publisher: record.publisher, subjects: [...record.subjects] }),
        })),
      ),
    );
    return true;
  });
}
