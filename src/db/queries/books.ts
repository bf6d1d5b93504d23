/** @module Reads and writes of books. Functions answer `undefined` for a missing row. */
import type DataLoader from 'dataloader';
import { eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { BookInput, BookWithStateJson, StoredBook } from '../../domain/book.js';
import { Conflict, UnprocessableEntity } from '../../domain/errors.js';
import { TOP_AUTHORS, TOP_LANGUAGES, TOP_SUBJECTS } from '../../domain/facets.js';
import { type Hold, holdIsOpen } from '../../domain/hold.js';
import { isbn13Of } from '../../domain/identifiers.js';
import { INT4_MAX } from '../../domain/limits.js';
import type { Listing, PagedListing } from '../../domain/listing.js';
import { bookListingSpec } from '../../domain/listings.js';
import { type CallerCirculation, inCirculation } from '../../domain/policy.js';
import { bookHasLoans } from '../../domain/refusals.js';
import type { Database, Db } from '../client.js';
import { constraintViolation, FOREIGN_KEY_VIOLATION } from '../errors.js';
import { pgliteStatement } from '../pglite-statement.js';
import { prepared } from '../prepared.js';
import { rowLoader } from '../row-loader.js';
import { authors, books, copies, holds, loans } from '../schema/index.js';
import { authorBookCount, authorsBookCount, collectionCount, yearsBookCount } from './counts.js';
import { countFacets, type FacetColumns } from './facets.js';
import { type CopyFacts, firstOnShelf } from './lending-decisions.js';
import {
  type ListingMapping,
  type ListingScope,
  listingTable,
  readAll,
  readPage,
  STATE_JSON_STREAM_BATCH,
  type StreamReading,
} from './listing.js';
import { idBlockAnchor, yearAnchor } from './listing-anchors.js';
import { isoTimestamp } from './sql.js';
import { atVersions, rejectedWrite } from './writes.js';

/**
 * The active loans of the outer `books` row. Written with explicit qualification: drizzle renders columns
 * of a single-table select unqualified, which inside a subquery would name the subquery's own table.
 */
const activeLoans = sql`from ${loans} as "active" where "active"."book_id" = ${books}."id" and "active"."returned_at" is null`;

/** Only while no copy is on the shelf: when the next is due back. */
const dueAt = sql<
  string | null
>`case when ${books.copiesAvailable} > 0 then null else (select ${isoTimestamp(sql`min("active"."due_at")`)} ${activeLoans}) end`;

/** Columns named as the API names them, so rows read through a raw cursor have the same keys. */
const bookColumns = {
  id: books.id,
  title: books.title,
  publication_year: books.publicationYear,
  author_id: books.authorId,
  version: books.version,
  available: sql<boolean>`${books.copiesAvailable} > 0`.as('available'),
  due_at: dueAt.as('due_at'),
  copies_total: books.copiesTotal,
  copies_available: books.copiesAvailable,
  isbn: books.isbn,
  language: books.language,
  // As JSON, which the drivers parse natively, rather than through postgres.js's slower parser of `text[]`
  // (docs/performance/what-stays.md).
  subjects: sql<string[]>`to_json(${books.subjects})`.as('subjects'),
  publisher: books.publisher,
  // For the title of the `author` link: kept on the book by triggers, so a listing looks up no author.
  author_name: books.authorName,
};

/**
 * A book's state as a member of a listing shows it, written as JSON text by PostgreSQL: its fields in the
 * order `renderBook` gives them, by `row_to_json`, which writes what `JSON.stringify` writes of the same
 * values (no spaces; quotes, backslashes and control characters escaped alike; arrays, booleans, null).
 * The server then neither decodes a dozen columns a row nor stringifies them (docs/performance/what-stays.md).
 */
const memberStateJson = sql<string>`(select row_to_json("member")::text from (select ${sql.join(
  Object.entries({
    id: books.id,
    title: books.title,
    publication_year: books.publicationYear,
    author_id: books.authorId,
    isbn: books.isbn,
    language: books.language,
    subjects: books.subjects,
    publisher: books.publisher,
    available: sql`${books.copiesAvailable} > 0`,
    due_at: dueAt,
    copies_total: books.copiesTotal,
    copies_available: books.copiesAvailable,
  }).map(([field, value]) => sql`${value} as ${sql.identifier(field)}`),
  sql`, `,
)}) as "member")`;

/** A book's full document also needs to know whether any loan or hold refers to it (then it stays). */
const bookDocumentColumns = {
  ...bookColumns,
  hasLoans:
    sql<boolean>`(exists (select 1 from ${loans} as "any" where "any"."book_id" = ${books}."id") or exists (select 1 from ${holds} as "any_hold" where "any_hold"."book_id" = ${books}."id"))`.as(
      'has_loans',
    ),
};

/** A book with the facts its full document needs. */
export type BookRecord = StoredBook & { hasLoans: boolean };

/** Business time, the placeholder `at` (the app's clock, as ISO 8601): when a ready hold counts as expired. */
const businessNow = sql`${sql.placeholder('at')}::timestamptz`;

/**
 * What a signed-in caller's read of a book adds, as one JSON value: copies set aside for ready holds still
 * ready at `at` (a librarian lends them), and whether the caller (placeholder `caller`) has it on loan and
 * their open hold of it. One column, so the statement stays short: postgres.js hashes a prepared statement's whole text on
 * every call to find it, a cost that grows with the text.
 */
const callerCirculation = sql<RawCirculation>`json_build_object(
  'copies_ready', (select count(*)::int from ${holds} as "ready" where "ready"."book_id" = ${books}."id" and "ready"."status" = 'ready' and "ready"."ready_until" > ${businessNow}),
  'on_loan', exists (select 1 ${activeLoans} and "active"."borrower_id" = ${sql.placeholder('caller')}),
  'hold', (select json_build_object(
      'id', "mine"."id",
      'status', case when "mine"."status" = 'ready' and "mine"."ready_until" <= ${businessNow} then 'expired' else "mine"."status" end,
      'position', case when "mine"."status" = 'waiting' then (select count(*)::int from ${holds} as "ahead" where "ahead"."book_id" = "mine"."book_id" and "ahead"."status" = 'waiting' and ("ahead"."placed_at", "ahead"."id") <= ("mine"."placed_at", "mine"."id")) end,
      'ready_until', case when "mine"."status" = 'ready' then ${isoTimestamp(sql`"mine"."ready_until"`)} end)
    from ${holds} as "mine" where "mine"."book_id" = ${books}."id" and "mine"."borrower_id" = ${sql.placeholder('caller')} and "mine"."status" in ('waiting', 'in_transit', 'ready'))
)`;

interface RawCirculation {
  copies_ready: number;
  on_loan: boolean;
  hold: { id: number; status: string; position: number | null; ready_until: string | null } | null;
}

const callerBookColumns = { ...bookDocumentColumns, circulation: callerCirculation.as('circulation') };

/** A book as one signed-in caller reads it: with what they have to do with it. */
export type CallerBookRecord = BookRecord & {
  copies_ready: number;
  mine: CallerCirculation;
  /** When asked for: the first copy on the shelf, which a borrow would lend a caller without a hold of it. */
  shelf_copy?: ShelfCopy | null;
};

/** A copy as the lending rules see it (`CopyFacts`). */
export type ShelfCopy = CopyFacts;

/**
 * The first copy of the book on the shelf (`firstOnShelf`), as `[id, item_type_id, branch_id,
 * location_branch_id]`: what a signed-in read's borrow control is decided on, in the book's own statement
 * rather than one more.
 */
const shelfCopy = sql<
  [number, number, number, number] | string | null
>`(select json_build_array("first"."id", "first"."item_type_id", "first"."branch_id", "first"."location_branch_id")
  from ${copies} as "first" where "first"."id" = ${firstOnShelf(sql`${books}."id"`)})`;

const bookWithShelfCopyColumns = { ...bookDocumentColumns, shelf_copy: shelfCopy.as('shelf_copy') };

type RawShelfBook = BookRecord & { shelf_copy: [number, number, number, number] | string | null };

const bookListingMapping: ListingMapping<typeof bookListingSpec> = {
  from: books,
  selection: bookColumns,
  columns: {
    id: books.id,
    title: books.title,
    publication_year: books.publicationYear,
    author_id: books.authorId,
    copies_available: books.copiesAvailable,
  },
  id: books.id,
  search: {
    column: books.search,
    config: 'catalogue_english',
    dictionary: 'any',
    exact: books.exactKey,
    // A bare ISBN typed into `query` (ISBN-10 or -13, hyphens or not) finds its book, first.
    identifier: { column: books.isbn, of: isbn13Of },
  },
  filters: {
    // A range of publication years, which the index on publication_year serves.
    decade: (decades) =>
      or(
        ...decades.map((decade) => sql`${books.publicationYear} between ${decade} and ${(decade as number) + 9}`),
      ) as SQL,
    // Both true and false asked for: every book.
    available: (values) =>
      values.includes(true) && values.includes(false)
        ? sql`true`
        : values.includes(true)
          ? sql`${books.copiesAvailable} > 0`
          : sql`${books.copiesAvailable} = 0`,
    isbn: books.isbn,
    language: books.language,
    // Any of the headings (`&&`, which the GIN index on subjects serves); one heading is the subject
    // facet's narrowing, so its total is the facet's count.
    subject: (headings) => sql`${books.subjects} && ${sql.param(headings.map(String))}::text[]`,
  },
  authorNamed: {
    column: books.authorId,
    names: { column: authors.search, config: 'catalogue_simple', dictionary: 'names' },
    authorIds: (query) => sql`select ${authors.id} from ${authors} where ${authors.search} @@ ${query}`,
  },
};

export const bookListing = listingTable(bookListingSpec, bookListingMapping);

/** The same listing, each row read as a member's state in JSON and what its links need (`BookWithStateJson`). */
const bookStateJsonListing = listingTable(bookListingSpec, {
  ...bookListingMapping,
  selection: {
    id: books.id,
    author_id: books.authorId,
    author_name: books.authorName,
    state_json: memberStateJson.as('state_json'),
  },
});

/** The facets of a listing of books, read from each book's row (its author's name is kept on it). */
const bookFacets: FacetColumns = {
  author: {
    value: books.authorId,
    label: books.authorName,
    top: TOP_AUTHORS,
    labels: (ids) =>
      sql`select ${authors.id} as "value", ${authors.name} as "label" from ${authors} where ${inArray(authors.id, ids)}`,
  },
  // floor(year / 10) * 10 in integer arithmetic (`%` keeps the sign of a negative year): numeric was slower.
  decade: { value: sql`${books.publicationYear} - (${books.publicationYear} % 10 + 10) % 10` },
  available: { value: sql`${books.copiesAvailable} > 0` },
  language: { value: books.language, text: true, top: TOP_LANGUAGES },
  subject: { value: books.subjects, each: true, text: true, top: TOP_SUBJECTS },
};

/** Which books a listing ranges over: all, or one author's. */
export interface BookScope {
  authorId?: number;
}

/** The point select of one book: the benchmark's baseline server runs it, one id per query. */
export function findBookQuery(db: Db) {
  return db
    .select(bookDocumentColumns)
    .from(books)
    .where(eq(books.id, sql.placeholder('id')));
}

/** The same select of every book among `ids`: the book reads gathered in a turn run it once (`findBook`). */
export function findBooksQuery(db: Db) {
  return db
    .select(bookDocumentColumns)
    .from(books)
    .where(sql`${books.id} = any(${sql.placeholder('ids')}::integer[])`);
}

/** One loader per database (a transaction is a database of its own), so that its reads gather. */
const bookLoaders = new WeakMap<Db, DataLoader<number, BookRecord | undefined>>();
const shelfBookLoaders = new WeakMap<Db, DataLoader<number, RawShelfBook | undefined>>();

/** `findBook` with the first copy on the shelf (`shelfCopy`), gathered the same way. */
async function findBookWithShelfCopy(
  db: Db,
  params: { id: number },
): Promise<(BookRecord & { shelf_copy: ShelfCopy | null }) | undefined> {
  let loader = shelfBookLoaders.get(db);
  if (!loader) {
    const query = (db: Db) =>
      db
        .select(bookWithShelfCopyColumns)
        .from(books)
        .where(sql`${books.id} = any(${sql.placeholder('ids')}::integer[])`);
    const onPglite = pgliteStatement<RawShelfBook>(db, 'find_books_with_shelf_copy', {
      build: query,
      columns: Object.keys(bookWithShelfCopyColumns),
      argumentTypes: ['integer[]'],
    });
    const statement = onPglite ? undefined : query(db).prepare('find_books_with_shelf_copy');
    const readMany = onPglite
      ? (ids: number[]) => onPglite([ids])
      : (ids: number[]) => statement?.execute({ ids }) as Promise<RawShelfBook[]>;
    loader = rowLoader(readMany, (book: RawShelfBook) => book.id);
    shelfBookLoaders.set(db, loader);
  }
  const row = await loader.load(params.id);
  if (!row) return undefined;
  // postgres.js and PGlite parse `json`; a driver that does not hands over its text.
  const raw = typeof row.shelf_copy === 'string' ? JSON.parse(row.shelf_copy) : row.shelf_copy;
  const copy: ShelfCopy | null = raw
    ? { id: raw[0], item_type_id: raw[1], branch_id: raw[2], location_branch_id: raw[3] }
    : null;
  return Object.assign(row, { shelf_copy: copy });
}

/**
 * A book, read together with the other books read in the same turn of the event loop (`row-loader.ts`):
 * one statement for them all.
 */
export function findBook(db: Db, params: { id: number }): Promise<BookRecord | undefined> {
  let loader = bookLoaders.get(db);
  if (!loader) {
    loader = rowLoader(findBooksStatement(db), (book: BookRecord) => book.id);
    bookLoaders.set(db, loader);
  }
  return loader.load(params.id);
}

function findBooksStatement(db: Db): (ids: number[]) => Promise<BookRecord[]> {
  const onPglite = pgliteStatement<BookRecord>(db, 'find_books', {
    build: findBooksQuery,
    columns: Object.keys(bookDocumentColumns),
    argumentTypes: ['integer[]'],
  });
  if (onPglite) return (ids) => onPglite([ids]);
  const statement = findBooksQuery(db).prepare('find_books');
  return (ids) => statement.execute({ ids });
}

export function findBookForCallerQuery(db: Db) {
  return db
    .select(callerBookColumns)
    .from(books)
    .where(eq(books.id, sql.placeholder('id')));
}

/** What a caller has of a book all on the shelf: nothing (shared, so frozen). */
const nothingOfTheCallers: CallerCirculation = Object.freeze({ on_loan: false, hold: null });

/**
 * A book as a signed-in caller reads it: with their loan and hold of it. Most books of a catalogue are all
 * on the shelf, and then nobody has them on loan or on hold (`inCirculation`): the book's own statement
 * answers, which PostgreSQL runs in two thirds of the time of one that also looks the caller up.
 * Otherwise the book is read again, with what the caller has of it, all in one snapshot.
 */
export async function findBookForCaller(
  db: Db,
  params: { id: number; callerId: number; at: Date; shelfCopy?: boolean },
): Promise<CallerBookRecord | undefined> {
  const book = params.shelfCopy ? await findBookWithShelfCopy(db, params) : await findBook(db, { id: params.id });
  if (!book) return undefined;
  if (!inCirculation(book)) return Object.assign(book, { copies_ready: 0, mine: nothingOfTheCallers });
  const statement = prepared(db, 'find_book_for_caller', (db) =>
    findBookForCallerQuery(db).prepare('find_book_for_caller'),
  );
  const [row] = await statement.execute({ id: params.id, caller: params.callerId, at: params.at.toISOString() });
  if (!row) return undefined;
  const read = withCallerCirculation(row as RawCallerBook);
  return 'shelf_copy' in book ? Object.assign(read, { shelf_copy: book.shelf_copy }) : read;
}

type RawCallerBook = BookRecord & { circulation: RawCirculation | string };

function withCallerCirculation(row: RawCallerBook): CallerBookRecord {
  const { circulation: raw, ...book } = row;
  // postgres.js and PGlite parse `json`; a driver that does not hands over its text.
  const circulation: RawCirculation = typeof raw === 'string' ? JSON.parse(raw) : raw;
  const { hold } = circulation;
  const open = hold && holdIsOpen(hold as Pick<Hold, 'status'>);
  const mine: CallerCirculation = {
    on_loan: circulation.on_loan,
    hold: open
      ? {
          id: hold.id,
          status: hold.status as Hold['status'],
          position: hold.position,
          ready_until: hold.ready_until,
        }
      : null,
  };
  return Object.assign(book, { copies_ready: circulation.copies_ready, mine });
}

export async function insertBook(db: Db, input: BookInput): Promise<BookRecord> {
  refuseUnassignableAuthorId(input);
  const [book] = await db
    .insert(books)
    .values({
      title: input.title,
      publicationYear: input.publication_year,
      authorId: input.author_id,
      isbn: input.isbn ?? null,
      language: input.language ?? null,
      subjects: input.subjects ?? [],
      publisher: input.publisher ?? null,
    })
    .returning(bookDocumentColumns)
    .catch(rejectedBook(input));
  return book as BookRecord;
}

/**
 * Changes the given fields and bumps the version, in one statement. With `versions`, the row changes only
 * if its version is one of them: the `If-Match` check cannot race another writer.
 */
/**
 * The author a book had before the statement that returns it: a subquery in RETURNING reads the
 * statement's snapshot, which does not see the statement's own change (what caches must drop depends on it).
 */
const previousAuthorId =
  sql<number>`(select "before"."author_id" from ${books} as "before" where "before"."id" = ${books}."id")`.as(
    'previous_author_id',
  );

export async function updateBook(
  db: Db,
  params: { id: number; changes: Partial<BookInput>; versions?: number[] },
): Promise<(BookRecord & { previous_author_id: number }) | undefined> {
  const { changes } = params;
  refuseUnassignableAuthorId(changes);
  const [book] = await db
    .update(books)
    .set({
      ...(changes.title !== undefined && { title: changes.title }),
      ...(changes.publication_year !== undefined && { publicationYear: changes.publication_year }),
      ...(changes.author_id !== undefined && { authorId: changes.author_id }),
      ...(changes.isbn !== undefined && { isbn: changes.isbn }),
      ...(changes.language !== undefined && { language: changes.language }),
      ...(changes.subjects !== undefined && { subjects: changes.subjects ?? [] }),
      ...(changes.publisher !== undefined && { publisher: changes.publisher }),
      version: sql`${books.version} + 1`,
    })
    .where(atVersions(books, params))
    .returning({ ...bookDocumentColumns, previous_author_id: previousAuthorId })
    .catch(rejectedBook(changes));
  return book;
}

/**
 * Deletes the book (only at one of `versions`, when given); answers whether a row went. The foreign key
 * from loans refuses while any loan refers to the book, should one arrive after the route's check.
 */
export async function deleteBook(db: Db, params: { id: number; versions?: number[] }): Promise<boolean> {
  const deleted = await db
    .delete(books)
    .where(atVersions(books, params))
    .returning({ id: books.id })
    .catch((error: unknown) => {
      if (constraintViolation(error)?.code === FOREIGN_KEY_VIOLATION) throw bookHasLoans(params.id);
      throw error;
    });
  return deleted.length > 0;
}

/** One page of the listing and its total. */
export function listBooksPage(db: Db, listing: PagedListing, scope: BookScope = {}) {
  return readPage<StoredBook>(db, bookListing, listing, scopeOf(scope));
}

/** The facets the listing asks for, counted over all of it. */
export function countBookFacets(db: Db, listing: Listing, scope: BookScope = {}) {
  return countFacets(db, bookListing, listing, bookFacets, scopeOf(scope));
}

/**
 * Every item of the listing, streamed from a cursor; with their state as JSON text where the format takes it
 * and every field is shown (a sparse fieldset is read as columns).
 */
export function streamBooks(
  database: Database,
  listing: Listing,
  reading: StreamReading = { stateJson: false },
  scope: BookScope = {},
): AsyncIterable<(StoredBook | BookWithStateJson)[]> {
  return reading.stateJson && listing.fields === undefined
    ? readAll<BookWithStateJson>(database, bookStateJsonListing, listing, scopeOf(scope), STATE_JSON_STREAM_BATCH)
    : readAll<StoredBook>(database, bookListing, listing, scopeOf(scope));
}

function scopeOf(scope: BookScope): ListingScope {
  return scope.authorId === undefined
    ? {
        counted: collectionCount('books'),
        countedBy: {
          author_id: (ids) => authorsBookCount(ids as number[]),
          publication_year: (years) => yearsBookCount(years as number[]),
        },
        anchors: { id: idBlockAnchor('books'), publication_year: yearAnchor },
      }
    : { conditions: [eq(books.authorId, scope.authorId)], counted: authorBookCount(scope.authorId) };
}

/**
 * An author_id beyond the `integer` column's range names no author, like any unassigned id; the database
 * would refuse to even bind it, so it is answered here the way the foreign key answers.
 */
function refuseUnassignableAuthorId(input: Partial<BookInput>): void {
  if (input.author_id !== undefined && input.author_id > INT4_MAX) throw noSuchAuthor(input);
}

function noSuchAuthor(input: Partial<BookInput>): UnprocessableEntity {
  return new UnprocessableEntity(`author_id ${input.author_id} names no author`, { author_id: 'names no author' });
}

/** The database has the last word on references, checks and uniqueness; its refusals become typed errors. */
function rejectedBook(input: Partial<BookInput>) {
  return rejectedWrite('book', {
    [FOREIGN_KEY_VIOLATION]: () => noSuchAuthor(input),
    books_isbn_key: () =>
      new Conflict(`ISBN ${input.isbn} belongs to another book`, { isbn: 'belongs to another book' }),
  });
}
