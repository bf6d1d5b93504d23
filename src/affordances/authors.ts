/** @module The controls on authors: searching and adding them, changing and deleting one. */
import { type Author, authorInputFields } from '../domain/author.js';
import { authorListingSpec } from '../domain/listings.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';
import { changeAffordances } from './change.js';

/** An author as the predicates about them need it (`hasBooks` unknown counts as having books). */
type AuthorSubject = Author & { hasBooks?: boolean };

export const searchAuthors = affordance({
  name: 'search',
  path: paths.authors,
  summary: 'List or search authors',
  listing: authorListingSpec,
  title: 'Search authors',
  appears: 'on the authors collection, for everyone who may read the catalogue',
  allows: ({ policy, caller }) => policy.read(caller),
  href: ({ uris }) => uris.authors(),
});

export const addAuthor = affordance({
  name: 'create',
  path: paths.authors,
  summary: 'Add an author',
  body: { fields: authorInputFields, mode: 'create' },
  title: 'Add an author',
  appears: 'on the authors collection, for librarians',
  allows: ({ policy, caller }) => policy.manageCatalogue(caller),
  href: ({ uris }) => uris.authors(),
});

export const changeAuthor = changeAffordances({
  noun: 'author',
  path: paths.author,
  fields: authorInputFields,
  appears: 'on an author, for librarians',
  allows: ({ policy, caller }) => policy.manageCatalogue(caller),
  href: ({ uris }, author) => uris.author(author.id),
});

export const deleteAuthor = affordance<AuthorSubject>({
  name: 'delete',
  path: paths.author,
  summary: 'Delete an author who has no books',
  conditional: true,
  errors: [409],
  title: 'Delete author',
  appears: 'on an author without books, for librarians',
  allows: ({ policy, caller }, author) =>
    policy.deleteAuthor(caller, { id: author.id, hasBooks: author.hasBooks ?? true }),
  href: ({ uris }, author) => uris.author(author.id),
});
