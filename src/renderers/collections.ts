/** @module The catalogue's collections and the controls each offers the caller. */
import { type Author, authorInputFields } from '../domain/author.js';
import { type Book, bookInputFields } from '../domain/book.js';
import { authorListingSpec, bookListingSpec } from '../domain/listings.js';
import { userInputFields } from '../domain/user.js';
import type { Control } from '../hypermedia/model.js';
import type { Collection } from './collection.js';
import type { RenderContext } from './context.js';
import { createControl } from './controls.js';
import { authorOptions, inputFields, listingFields } from './fields.js';

export function booksCollection(ctx: RenderContext): Collection {
  const { uris, caller, policy } = ctx;
  const controls: Control[] = [];
  if (policy.manageCatalogue(caller).allowed) controls.push(createBook(ctx, 'Add a book'));
  controls.push(bookSearch(uris.books(), 'Search books'));
  return { itemKind: 'book', uri: uris.books, controls, links: [] };
}

/** An author's books: `create` adds a book by this author (the `author_id` value is theirs). */
export function authorBooksCollection(ctx: RenderContext, author: Author): Collection {
  const { uris, caller, policy } = ctx;
  const controls: Control[] = [];
  if (policy.manageCatalogue(caller).allowed) {
    controls.push(createBook(ctx, `Add a book by ${author.name}`, { author_id: author.id }));
  }
  controls.push(bookSearch(uris.authorBooks(author.id), `Search books by ${author.name}`));
  return {
    itemKind: 'book',
    uri: (params) => uris.authorBooks(author.id, params),
    controls,
    links: [{ rel: 'up', href: uris.author(author.id), title: author.name }],
  };
}

export function authorsCollection(ctx: RenderContext): Collection {
  const { uris, caller, policy } = ctx;
  const controls: Control[] = [];
  if (policy.manageCatalogue(caller).allowed) {
    controls.push(createControl(uris.authors(), 'Add an author', inputFields(authorInputFields)));
  }
  controls.push({
    name: 'search',
    href: uris.authors(),
    method: 'GET',
    title: 'Search authors',
    fields: listingFields({ fieldNames: Object.keys(authorListingSpec.fields), author: false }),
  });
  return { itemKind: 'author', uri: uris.authors, controls, links: [] };
}

/** POST a new book; `values` prefills fields fixed by context (an author's books are theirs). */
function createBook(ctx: RenderContext, title: string, values?: Partial<Book>): Control {
  const fields = inputFields(bookInputFields, { values, choices: { author_id: authorOptions(ctx) } });
  return createControl(ctx.uris.books(), title, fields);
}

function bookSearch(href: string, title: string): Control {
  return {
    name: 'search',
    href,
    method: 'GET',
    title,
    fields: listingFields({ fieldNames: Object.keys(bookListingSpec.fields), author: true }),
  };
}

export function usersCollection(ctx: RenderContext): Collection {
  const { uris, caller, policy } = ctx;
  const controls: Control[] = [];
  if (policy.manageUsers(caller).allowed) {
    controls.push(createControl(uris.users(), 'Add a user', inputFields(userInputFields)));
  }
  return { itemKind: 'user', uri: uris.users, controls, links: [] };
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
