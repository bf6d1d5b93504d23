/** @module The controls on books: searching and adding them, changing, deleting and borrowing one. */
import type { Author } from '../domain/author.js';
import { bookInputFields } from '../domain/book.js';
import { bookListingSpec } from '../domain/listings.js';
import { borrowInputFields } from '../domain/loan.js';
import { type BookSubject, bookFacts, type SignedIn } from '../domain/policy.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';
import { changeAffordances } from './change.js';
import { authorOptions, branchOptions, copyOptions, inputFields, userOptions } from './fields.js';

const librarians = 'for librarians';

/** A book to borrow, and for whom when a librarian lends it. */
type BorrowSubject = { book: BookSubject; borrowerId?: number | undefined; branchId?: number | undefined };

/** Searching books: on the root and the books collection. */
export const searchBooks = affordance({
  name: 'search',
  path: paths.books,
  summary: 'List or search books',
  listing: bookListingSpec,
  title: 'Search books',
  appears: 'on the root and the books collection, for everyone who may read the catalogue',
  allows: ({ policy, caller }) => policy.read(caller),
  href: ({ uris }) => uris.books(),
});

/** Searching an author's books: on that collection. */
export const searchAuthorBooks = affordance<Author>({
  name: 'search',
  path: paths.authorBooks,
  summary: 'List or search the books of an author',
  listing: bookListingSpec,
  title: (author) => `Search books by ${author.name}`,
  appears: 'on an author\u2019s books, for everyone who may read the catalogue',
  allows: ({ policy, caller }) => policy.read(caller),
  href: ({ uris }, author) => uris.authorBooks(author.id),
});

/** Adding a book: on the books collection, and on an author's books with their `author_id` filled in. */
export const addBook = affordance({
  name: 'create',
  path: paths.books,
  summary: 'Add a book',
  body: { fields: bookInputFields, mode: 'create' },
  errors: [422],
  title: (author: Author | undefined) => (author ? `Add a book by ${author.name}` : 'Add a book'),
  appears: `on the books collection and an author\u2019s books, ${librarians}`,
  allows: ({ policy, caller }) => policy.manageCatalogue(caller),
  href: ({ uris }) => uris.books(),
  fields: (ctx, author) =>
    inputFields(bookInputFields, {
      ...(author && { values: { author_id: author.id } }),
      choices: { author_id: authorOptions(ctx) },
    }),
});

export const changeBook = changeAffordances({
  noun: 'book',
  path: paths.book,
  fields: bookInputFields,
  choices: (ctx) => ({ author_id: authorOptions(ctx) }),
  errors: [422],
  appears: `on a book, ${librarians}`,
  allows: ({ policy, caller }) => policy.manageCatalogue(caller),
  href: ({ uris }, book) => uris.book(book.id),
});

export const deleteBook = affordance<BookSubject>({
  name: 'delete',
  path: paths.book,
  summary: 'Delete a book that has no loan history',
  conditional: true,
  errors: [409],
  title: 'Delete book',
  appears: `on a book without loan history, ${librarians}`,
  allows: ({ policy, caller }, book) => policy.deleteBook(caller, bookFacts(book)),
  href: ({ uris }, book) => uris.book(book.id),
});

/**
 * Borrowing: for oneself, or (a librarian) for `borrower_id` and a named `copy_id`, which only librarians
 * are offered (the copies as options: those on the shelf). A librarian who could not borrow the book
 * themselves (they have a copy; the only ones in are set aside for holds) is offered it to lend, with
 * `borrower_id` required: sent without it, the borrow would be theirs, and refused.
 */
export const borrowBook = affordance({
  name: 'borrow',
  path: paths.borrow,
  summary:
    'Borrow a copy of a book (a librarian may lend it to `borrower_id`, name the `copy_id`, and the `branch_id` lending it: their home branch unless named)',
  body: { fields: borrowInputFields, mode: 'create', optional: true },
  errors: [409, 422],
  title: 'Borrow this book',
  appears:
    'on a book with a copy on the shelf or set aside for the caller\u2019s ready hold, for a signed-in user below the loan cap who has no copy of it; for librarians also on a book with a copy to lend to someone (on the shelf, or set aside for a ready hold), with `borrower_id` and `copy_id` offered to librarians only',
  allows: ({ policy, caller }, { book, borrowerId, branchId }: BorrowSubject) =>
    policy.borrow(caller, bookFacts(book), borrowerId, branchId),
  href: ({ uris }, { book }) => uris.borrow(book.id),
  fields: (ctx, { book }) => {
    const { policy, caller } = ctx;
    if (!policy.lendForOthers(caller)) return [];
    const forThemselves = policy.borrow(caller, bookFacts(book), (caller as SignedIn).id).allowed;
    return inputFields(borrowInputFields, {
      choices: { borrower_id: userOptions(ctx), copy_id: copyOptions(ctx, book.id), branch_id: branchOptions(ctx) },
      required: forThemselves ? [] : ['borrower_id'],
    });
  },
});
