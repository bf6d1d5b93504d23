/** @module Books: the collection, one book, and the author of a book. */
import type { Hono } from 'hono';
import { findAuthorOfBook } from '../../db/queries/authors.js';
import { deleteBook, findBook, insertBook, listBooksPage, streamBooks, updateBook } from '../../db/queries/books.js';
import { type Book, type BookInput, bookInputFields } from '../../domain/book.js';
import { NotFound, PreconditionFailed } from '../../domain/errors.js';
import { validateInput } from '../../domain/input.js';
import { parseListing } from '../../domain/listing.js';
import { bookListingSpec } from '../../domain/listings.js';
import { authorize, policy } from '../../domain/policy.js';
import { renderAuthor } from '../../renderers/author.js';
import { renderBook } from '../../renderers/book.js';
import { booksCollection } from '../../renderers/collections.js';
import { readJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { sendListing } from '../listing.js';
import { idParam, queryParams } from '../params.js';
import { ifMatchVersions } from '../preconditions.js';
import { send } from '../respond.js';
import { route } from '../route.js';

export const bookNotFound = (id: number) => new NotFound(`book ${id} not found`);

export function bookRoutes(app: Hono<AppEnv>): void {
  route(app, '/books', {
    async GET(c) {
      const ctx = c.get('ctx');
      const database = c.get('database');
      const listing = parseListing(bookListingSpec, queryParams(c));
      return sendListing(
        c,
        listing,
        booksCollection(ctx),
        { page: (paged) => listBooksPage(database.db, paged), stream: (all) => streamBooks(database, all) },
        (book: Book) => renderBook(book, ctx, { fields: listing.fields, asItem: true }),
      );
    },
    async POST(c) {
      const ctx = c.get('ctx');
      const input = validateInput<BookInput>(bookInputFields, await readJson(c), 'create');
      authorize(policy.createBook(ctx.caller));
      const book = await insertBook(c.get('database').db, input);
      return send(c, renderBook(book, ctx), { status: 201, headers: { Location: ctx.uris.book(book.id) } });
    },
  });

  route(app, '/books/:id', {
    async GET(c) {
      const id = idParam(c, 'id', 'book');
      const book = await findBook(c.get('database').db, { id });
      if (!book) throw bookNotFound(id);
      return send(c, renderBook(book, c.get('ctx')));
    },
    PUT: changeBook,
    PATCH: changeBook,
    async DELETE(c) {
      const id = idParam(c, 'id', 'book');
      const { db } = c.get('database');
      authorize(policy.deleteBook(c.get('ctx').caller));
      if (await deleteBook(db, { id, versions: ifMatchVersions(c.req.header('if-match')) })) {
        return c.body(null, 204);
      }
      throw (await findBook(db, { id })) ? new PreconditionFailed() : bookNotFound(id);
    },
  });

  route(app, '/books/:id/author', {
    async GET(c) {
      const id = idParam(c, 'id', 'book');
      const author = await findAuthorOfBook(c.get('database').db, { bookId: id });
      if (!author) throw bookNotFound(id);
      const ctx = c.get('ctx');
      return send(c, renderAuthor(author, ctx), { headers: { 'Content-Location': ctx.uris.author(author.id) } });
    },
  });
}

/** PUT and PATCH alike change only the fields sent (the seed's rule) and answer the whole book. */
const changeBook = async (c: import('hono').Context<AppEnv>) => {
  const id = idParam(c, 'id', 'book');
  const ctx = c.get('ctx');
  const { db } = c.get('database');
  const changes = validateInput<Partial<BookInput>>(bookInputFields, await readJson(c), 'change');
  authorize(policy.changeBook(ctx.caller));
  const book = await updateBook(db, { id, changes, versions: ifMatchVersions(c.req.header('if-match')) });
  if (!book) throw (await findBook(db, { id })) ? new PreconditionFailed() : bookNotFound(id);
  return send(c, renderBook(book, ctx));
};
