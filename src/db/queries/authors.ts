/** @module Reads and writes of authors. Functions answer `undefined` for a missing row. */
import { eq, sql } from 'drizzle-orm';
import type { AuthorInput, StoredAuthor } from '../../domain/author.js';
import type { Listing, PagedListing } from '../../domain/listing.js';
import { authorListingSpec } from '../../domain/listings.js';
import { authorStillHasBooks } from '../../domain/refusals.js';
import type { Database, Db } from '../client.js';
import { constraintViolation, FOREIGN_KEY_VIOLATION } from '../errors.js';
import { prepared } from '../prepared.js';
import { authors, books } from '../schema/index.js';
import { collectionCount } from './counts.js';
import { listingTable, readAll, readPage } from './listing.js';
import { idBlockAnchor } from './listing-anchors.js';
import { atVersions, rejectedWrite } from './writes.js';

const authorColumns = { id: authors.id, name: authors.name, version: authors.version };
/** Whether the author has books decides whether `delete` is offered; an index answers it. */
// Qualified by hand: in a single-table select drizzle renders columns unqualified, and an unqualified
// "id" inside the subquery would name books.id, not the author's id.
const hasBooks = sql<boolean>`exists (select 1 from ${books} as "b" where "b"."author_id" = ${authors}."id")`.as(
  'has_books',
);
const authorDocumentColumns = { ...authorColumns, hasBooks };

/** An author with the facts their full document needs. */
export type AuthorRecord = StoredAuthor & { hasBooks: boolean };

export const authorListing = listingTable(authorListingSpec, {
  from: authors,
  selection: authorColumns,
  columns: { id: authors.id, name: authors.name },
  id: authors.id,
  search: { column: authors.search, config: 'catalogue_simple', dictionary: 'names', exact: authors.exactKey },
});

export async function findAuthor(db: Db, params: { id: number }): Promise<AuthorRecord | undefined> {
  const statement = prepared(db, 'find_author', (db) =>
    db
      .select(authorDocumentColumns)
      .from(authors)
      .where(eq(authors.id, sql.placeholder('id')))
      .prepare('find_author'),
  );
  const [author] = await statement.execute(params);
  return author;
}

/** The author of a book, in one round trip; `undefined` when the book does not exist. */
export async function findAuthorOfBook(db: Db, params: { bookId: number }): Promise<AuthorRecord | undefined> {
  const statement = prepared(db, 'find_author_of_book', (db) =>
    db
      .select(authorDocumentColumns)
      .from(books)
      .innerJoin(authors, eq(authors.id, books.authorId))
      .where(eq(books.id, sql.placeholder('bookId')))
      .prepare('find_author_of_book'),
  );
  const [author] = await statement.execute(params);
  return author;
}

export async function insertAuthor(db: Db, input: AuthorInput): Promise<AuthorRecord> {
  const [author] = await db.insert(authors).values({ name: input.name }).returning(authorColumns).catch(rejectedAuthor);
  return { ...(author as StoredAuthor), hasBooks: false };
}

/** Changes the given fields and bumps the version; with `versions`, only at one of them (`If-Match`). */
export async function updateAuthor(
  db: Db,
  params: { id: number; changes: Partial<AuthorInput>; versions?: number[] },
): Promise<AuthorRecord | undefined> {
  const [author] = await db
    .update(authors)
    .set({
      ...(params.changes.name !== undefined && { name: params.changes.name }),
      version: sql`${authors.version} + 1`,
    })
    .where(atVersions(authors, params))
    .returning(authorDocumentColumns)
    .catch(rejectedAuthor);
  return author;
}

/**
 * Deletes the author (only at one of `versions`, when given); answers whether a row went. The foreign key
 * from books refuses while the author has books, so a book added concurrently is never orphaned.
 */
export async function deleteAuthor(db: Db, params: { id: number; versions?: number[] }): Promise<boolean> {
  const deleted = await db
    .delete(authors)
    .where(atVersions(authors, params))
    .returning({ id: authors.id })
    .catch((error: unknown) => {
      if (constraintViolation(error)?.code === FOREIGN_KEY_VIOLATION) {
        throw authorStillHasBooks(params.id);
      }
      throw error;
    });
  return deleted.length > 0;
}

/** One page of the listing and its total. */
export function listAuthorsPage(db: Db, listing: PagedListing) {
  return readPage<StoredAuthor>(db, authorListing, listing, {
    counted: collectionCount('authors'),
    anchors: { id: idBlockAnchor('authors') },
  });
}

/** Every item of the listing, streamed from a cursor. */
export function streamAuthors(database: Database, listing: Listing) {
  return readAll<StoredAuthor>(database, authorListing, listing);
}

const rejectedAuthor = rejectedWrite('author');
