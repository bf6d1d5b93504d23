/**
 * @module What a successful write makes stale besides the document written, per resource kind, answered as
 * `Link: <…>; rel="invalidates"`: each collection whole and at the first page its links lead to.
 */
import { firstPage, type ListingParams, type Uris } from '../hypermedia/uris.js';

/** A collection, whole and at its first page. */
function collection(uri: (params?: ListingParams) => string): string[] {
  return [uri(), uri(firstPage)];
}

/** An author's books, whole and at the first page. */
function booksOf(uris: Uris, authorId: number): string[] {
  return [uris.authorBooks(authorId), uris.authorBooks(authorId, firstPage)];
}

/**
 * A book added, changed or deleted: the books collection, and its author's document (which offers
 * `delete` only while they have no books) and books. A book moved to another author names both authors,
 * and the book's `author` document, which is now another.
 */
export function bookInvalidates(uris: Uris, bookId: number, authorIds: readonly number[]): string[] {
  const authors = [...new Set(authorIds)];
  return [
    ...collection(uris.books),
    ...authors.flatMap((id) => [uris.author(id), ...booksOf(uris, id)]),
    ...(authors.length > 1 ? [uris.bookAuthor(bookId)] : []),
  ];
}

/**
 * An author added, renamed or deleted: the authors collection; the books collection, whose `create`
 * offers the authors by name and whose items title their `author` link with it; and the author's books.
 * Each of their books' own documents carries the name too: those are not named (there may be thousands).
 */
export function authorInvalidates(uris: Uris, authorId: number): string[] {
  return [...collection(uris.authors), ...collection(uris.books), ...booksOf(uris, authorId)];
}

/**
 * A loan started or ended: the book (its availability, `borrow`, `delete`), the books collection and the
 * author's books (whose items show availability), the loans collection and the borrower's loans.
 */
export function loanInvalidates(
  uris: Uris,
  loan: { book_id: number; borrower_id: number },
  authorId: number | undefined,
): string[] {
  return [
    uris.book(loan.book_id),
    ...collection(uris.books),
    ...(authorId === undefined ? [] : booksOf(uris, authorId)),
    ...collection(uris.loans),
    uris.userLoans(loan.borrower_id),
    uris.userLoans(loan.borrower_id, firstPage),
  ];
}

/** A user added or changed: the users collection. */
export function userInvalidates(uris: Uris): string[] {
  return collection(uris.users);
}

/** A token created or revoked (a browser session is one): the user's tokens. */
export function tokenInvalidates(uris: Uris, userId: number): string[] {
  return [uris.userTokens(userId)];
}
