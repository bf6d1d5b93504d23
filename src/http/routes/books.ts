/** @module Books: the collection, one book, and the author of a book. */
import type { Hono } from 'hono';
import { addBook, borrowBook, changeBook, deleteBook, searchBooks } from '../../affordances/books.js';
import { findAuthorOfBook } from '../../db/queries/authors.js';
import {
  findBook,
  insertBook,
  listBooksPage,
  deleteBook as removeBook,
  streamBooks,
  updateBook,
} from '../../db/queries/books.js';
import { borrowBook as lendBook } from '../../db/queries/loans.js';
import type { BookInput, StoredBook } from '../../domain/book.js';
import { bookListingSpec } from '../../domain/listings.js';
import type { BorrowInput } from '../../domain/loan.js';
import type { SignedIn } from '../../domain/policy.js';
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
import { route } from '../route.js';
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

export function bookRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    paths.books,
    { GET: searchBooks, POST: addBook },
    {
      GET: listHandler({
        spec: bookListingSpec,
        collection: booksCollection,
        page: listBooksPage,
        stream: streamBooks,
        renderItem: renderBook,
      }),
      POST: createHandler(storedBook, addBook),
    },
  );

  route(
    app,
    paths.book,
    { GET: { summary: 'A book' }, PUT: changeBook.update, PATCH: changeBook.edit, DELETE: deleteBook },
    {
      GET: readHandler(storedBook),
      PUT: changeHandler(storedBook, changeBook.update),
      PATCH: changeHandler(storedBook, changeBook.edit),
      DELETE: deleteHandler(storedBook, deleteBook),
    },
  );

  /** The one verb path the seed allows: borrowing a book. The due date is the library's, not the client's. */
  route(
    app,
    paths.borrow,
    { POST: borrowBook },
    {
      async POST(c) {
        const id = idParam(c, 'id', 'book');
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const book = await findBook(db, { id });
        if (!book) throw bookNotFound(id);
        // Who may borrow at all is settled before the body is read; for whom, once it is.
        borrowBook.authorize(ctx, { book });
        const input = borrowBook.validate<BorrowInput>(await readOptionalJson(c));
        borrowBook.authorize(ctx, { book, borrowerId: input.borrower_id });
        const { rules } = ctx.policy;
        const loan = await lendBook(db, {
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
    },
  );

  route(
    app,
    paths.bookAuthor,
    { GET: { summary: 'The author of a book' } },
    {
      async GET(c) {
        const id = idParam(c, 'id', 'book');
        const author = await findAuthorOfBook(c.get('database').db, { bookId: id });
        if (!author) throw bookNotFound(id);
        const ctx = c.get('ctx');
        return send(c, renderAuthor(author, ctx), { headers: { 'Content-Location': ctx.uris.author(author.id) } });
      },
    },
  );
}

/** The book as a stored resource; what may be done to it is declared in `affordances/books.ts`. */
const storedBook = {
  kind: 'book',
  find: (db, id) => findBook(db, { id }),
  update: updateBook,
  insert: insertBook,
  uri: (ctx, book) => ctx.uris.book(book.id),
  render: (book, ctx) => renderBook(book, ctx),
  // An update answers the author the book had before it (`previous_author_id`): a moved book names both.
  invalidates: (ctx, book: StoredBook & { previous_author_id?: number }) =>
    bookInvalidates(ctx.uris, book.id, [book.previous_author_id ?? book.author_id, book.author_id]),
  remove: removeBook,
  next: (ctx) => ctx.uris.books(firstPage),
} satisfies CreatableResource<StoredBook, BookInput> & DeletableResource<StoredBook>;
