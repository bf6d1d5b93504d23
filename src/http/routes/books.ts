/** @module Books: the collection, one book, and the author of a book. */
import type { Hono } from 'hono';
import { findAuthorOfBook } from '../../db/queries/authors.js';
import { deleteBook, findBook, insertBook, listBooksPage, streamBooks, updateBook } from '../../db/queries/books.js';
import { borrowBook } from '../../db/queries/loans.js';
import { type BookInput, bookInputFields, type StoredBook } from '../../domain/book.js';
import { validateInput } from '../../domain/input.js';
import { bookListingSpec } from '../../domain/listings.js';
import { type BorrowInput, borrowInputFields } from '../../domain/loan.js';
import { authorize, bookFacts, type SignedIn } from '../../domain/policy.js';
import { paths } from '../../hypermedia/uris.js';
import { renderAuthor } from '../../renderers/author.js';
import { renderBook } from '../../renderers/book.js';
import { booksCollection } from '../../renderers/collections.js';
import { firstPage } from '../../renderers/first-page.js';
import { bookInvalidates, loanInvalidates } from '../../renderers/invalidations.js';
import { renderLoan } from '../../renderers/loan.js';
import { readOptionalJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { listHandler } from '../listing.js';
import { idParam } from '../params.js';
import { send } from '../respond.js';
import { type Operations, route } from '../route.js';
import {
  type CreatableResource,
  changeHandler,
  createHandler,
  type DeletableResource,
  deleteHandler,
  notFound,
  readHandler,
} from '../stored-resource.js';

export const bookNotFound = (id: number) => notFound('book', id);

const bookChange = { fields: bookInputFields, mode: 'change' } as const;

/** What each route takes and answers: the profile and the OpenAPI document are generated from it. */
const operations = {
  /** `/books` */
  books: {
    GET: { summary: 'List or search books', control: 'search', listing: bookListingSpec },
    POST: {
      summary: 'Add a book',
      control: 'create',
      body: { fields: bookInputFields, mode: 'create' },
      errors: [422],
    },
  },
  /** `/books/{id}` */
  book: {
    GET: { summary: 'A book' },
    PUT: {
      summary: 'Change the fields of a book that are sent',
      control: 'update',
      body: bookChange,
      conditional: true,
      errors: [422],
    },
    PATCH: {
      summary: 'Change the fields of a book that are sent',
      control: 'edit',
      body: bookChange,
      conditional: true,
      errors: [422],
    },
    DELETE: {
      summary: 'Delete a book that has no loan history',
      control: 'delete',
      conditional: true,
      errors: [409],
    },
  },
  /** `/books/{id}/borrow` */
  borrow: {
    POST: {
      summary: 'Borrow a book (a librarian may lend it to `borrower_id`)',
      control: 'borrow',
      body: { fields: borrowInputFields, mode: 'create', optional: true },
      errors: [409, 422],
    },
  },
  /** `/books/{id}/author` */
  bookAuthor: { GET: { summary: 'The author of a book' } },
} satisfies Record<string, Operations>;

export function bookRoutes(app: Hono<AppEnv>): void {
  route(app, paths.books, operations.books, {
    GET: listHandler({
      spec: bookListingSpec,
      collection: booksCollection,
      page: listBooksPage,
      stream: streamBooks,
      renderItem: renderBook,
    }),
    POST: createHandler(storedBook),
  });

  route(app, paths.book, operations.book, {
    GET: readHandler(storedBook),
    PUT: changeBook,
    PATCH: changeBook,
    DELETE: deleteHandler(storedBook),
  });

  /** The one verb path the seed allows: borrowing a book. The due date is the library's, not the client's. */
  route(app, paths.borrow, operations.borrow, {
    async POST(c) {
      const id = idParam(c, 'id', 'book');
      const ctx = c.get('ctx');
      const { db } = c.get('database');
      const book = await findBook(db, { id });
      if (!book) throw bookNotFound(id);
      // Who may borrow at all is settled before the body is read; for whom, once it is.
      authorize(ctx.policy.borrow(ctx.caller, bookFacts(book)));
      const input = validateInput<BorrowInput>(borrowInputFields, await readOptionalJson(c), 'create');
      authorize(ctx.policy.borrow(ctx.caller, bookFacts(book), input.borrower_id));
      const { rules } = ctx.policy;
      const loan = await borrowBook(db, {
        bookId: id,
        borrowerId: input.borrower_id ?? (ctx.caller as SignedIn).id,
        loanDays: rules.loanDays,
        maxActiveLoans: rules.maxActiveLoans,
      });
      // The answer is the loan, at its own URI.
      const uri = ctx.uris.loan(loan.id);
      return send(c, renderLoan(loan, ctx), {
        status: 201,
        headers: { Location: uri, 'Content-Location': uri },
        invalidates: loanInvalidates(ctx.uris, loan, book.author_id),
      });
    },
  });

  route(app, paths.bookAuthor, operations.bookAuthor, {
    async GET(c) {
      const id = idParam(c, 'id', 'book');
      const author = await findAuthorOfBook(c.get('database').db, { bookId: id });
      if (!author) throw bookNotFound(id);
      const ctx = c.get('ctx');
      return send(c, renderAuthor(author, ctx), { headers: { 'Content-Location': ctx.uris.author(author.id) } });
    },
  });
}

/** The book as a stored resource: PUT/PATCH change the fields sent; DELETE only without loan history. */
const storedBook = {
  kind: 'book',
  find: (db, id) => findBook(db, { id }),
  mayChange: (ctx) => ctx.policy.manageCatalogue(ctx.caller),
  fields: bookInputFields,
  update: updateBook,
  insert: insertBook,
  uri: (ctx, book) => ctx.uris.book(book.id),
  render: (book, ctx) => renderBook(book, ctx),
  invalidates: (ctx, book, before?: StoredBook) =>
    bookInvalidates(ctx.uris, book.id, [before?.author_id ?? book.author_id, book.author_id]),
  invalidatesBefore: true,
  mayDelete: (ctx, book) => ctx.policy.deleteBook(ctx.caller, bookFacts(book)),
  remove: deleteBook,
  next: (ctx) => ctx.uris.books(firstPage),
} satisfies CreatableResource<StoredBook, BookInput> & DeletableResource<StoredBook>;
const changeBook = changeHandler(storedBook);
