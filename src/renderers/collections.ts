/** @module The catalogue's collections and the controls each offers the caller. */
import { offered } from '../affordances/affordance.js';
import { addAuthor, searchAuthors } from '../affordances/authors.js';
import { addBook, searchAuthorBooks, searchBooks } from '../affordances/books.js';
import type { RenderContext } from '../affordances/context.js';
import { addCopy } from '../affordances/copies.js';
import { importRecords } from '../affordances/imports.js';
import { addUser } from '../affordances/users.js';
import type { Author } from '../domain/author.js';
import type { Collection } from './collection.js';

export function booksCollection(ctx: RenderContext): Collection {
  const controls = [
    ...offered(ctx, undefined, [addBook]),
    ...offered(ctx, undefined, [searchBooks]),
    ...offered(ctx, undefined, [importRecords]),
  ];
  return { itemKind: 'book', uri: ctx.uris.books, controls, links: [] };
}

/** An author's books: `create` adds a book by this author (the `author_id` value is theirs). */
export function authorBooksCollection(ctx: RenderContext, author: Author): Collection {
  const { uris } = ctx;
  return {
    itemKind: 'book',
    uri: (params) => uris.authorBooks(author.id, params),
    controls: offered(ctx, author, [addBook, searchAuthorBooks]),
    links: [{ rel: 'up', href: uris.author(author.id), title: author.name }],
  };
}

export function authorsCollection(ctx: RenderContext): Collection {
  const controls = [...offered(ctx, undefined, [addAuthor]), ...offered(ctx, undefined, [searchAuthors])];
  return { itemKind: 'author', uri: ctx.uris.authors, controls, links: [] };
}

export function usersCollection(ctx: RenderContext): Collection {
  return { itemKind: 'user', uri: ctx.uris.users, controls: offered(ctx, undefined, [addUser]), links: [] };
}

/** Loans: all of them for a librarian, the caller's own for a member (the route scopes the query). */
export function loansCollection(ctx: RenderContext): Collection {
  return { itemKind: 'loan', uri: ctx.uris.loans, controls: [], links: [] };
}

export function userLoansCollection(ctx: RenderContext, user: { id: number; name: string }): Collection {
  const { uris } = ctx;
  return {
    itemKind: 'loan',
    uri: (params) => uris.userLoans(user.id, params),
    controls: [],
    links: [{ rel: 'up', href: uris.user(user.id), title: user.name }],
  };
}

/** A book's copies: everyone who reads the catalogue sees where they are; librarians add them. */
export function copiesCollection(ctx: RenderContext, book: { id: number; title: string }): Collection {
  const { uris } = ctx;
  return {
    itemKind: 'copy',
    uri: (params) => uris.bookCopies(book.id, params),
    controls: offered(ctx, book, [addCopy]),
    links: [{ rel: 'up', href: uris.book(book.id), title: book.title }],
  };
}

/** A book's holds (librarians): the queue, first come first served. */
export function bookHoldsCollection(ctx: RenderContext, book: { id: number; title: string }): Collection {
  const { uris } = ctx;
  return {
    itemKind: 'hold',
    uri: (params) => uris.bookHolds(book.id, params),
    controls: [],
    links: [{ rel: 'up', href: uris.book(book.id), title: book.title }],
  };
}

/** A user's holds, open and past. */
export function userHoldsCollection(ctx: RenderContext, user: { id: number; name: string }): Collection {
  const { uris } = ctx;
  return {
    itemKind: 'hold',
    uri: (params) => uris.userHolds(user.id, params),
    controls: [],
    links: [{ rel: 'up', href: uris.user(user.id), title: user.name }],
  };
}
