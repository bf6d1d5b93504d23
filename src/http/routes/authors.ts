/** @module Authors: the collection, one author, and an author's books. */
import type { Hono } from 'hono';
import {
  type AuthorRecord,
  deleteAuthor,
  findAuthor,
  insertAuthor,
  listAuthorsPage,
  streamAuthors,
  updateAuthor,
} from '../../db/queries/authors.js';
import { listBooksPage, streamBooks } from '../../db/queries/books.js';
import { type AuthorInput, authorInputFields } from '../../domain/author.js';
import type { StoredBook } from '../../domain/book.js';
import { parseListing } from '../../domain/listing.js';
import { authorListingSpec, bookListingSpec } from '../../domain/listings.js';
import { paths } from '../../hypermedia/uris.js';
import { renderAuthor } from '../../renderers/author.js';
import { renderBook } from '../../renderers/book.js';
import { authorBooksCollection, authorsCollection } from '../../renderers/collections.js';
import { firstPage } from '../../renderers/first-page.js';
import { authorInvalidates } from '../../renderers/invalidations.js';
import type { AppEnv } from '../env.js';
import { listHandler, sendListing } from '../listing.js';
import { idParam, queryParams } from '../params.js';
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

const authorNotFound = (id: number) => notFound('author', id);

const authorChange = { fields: authorInputFields, mode: 'change' } as const;

/** What each route takes and answers: the profile and the OpenAPI document are generated from it. */
const operations = {
  /** `/authors` */
  authors: {
    GET: { summary: 'List or search authors', control: 'search', listing: authorListingSpec },
    POST: { summary: 'Add an author', control: 'create', body: { fields: authorInputFields, mode: 'create' } },
  },
  /** `/authors/{id}` */
  author: {
    GET: { summary: 'An author' },
    PUT: {
      summary: 'Change the fields of an author that are sent',
      control: 'update',
      body: authorChange,
      conditional: true,
    },
    PATCH: {
      summary: 'Change the fields of an author that are sent',
      control: 'edit',
      body: authorChange,
      conditional: true,
    },
    DELETE: { summary: 'Delete an author who has no books', control: 'delete', conditional: true, errors: [409] },
  },
  /** `/authors/{id}/books` */
  authorBooks: {
    GET: { summary: 'List or search the books of an author', control: 'search', listing: bookListingSpec },
  },
} satisfies Record<string, Operations>;

export function authorRoutes(app: Hono<AppEnv>): void {
  route(app, paths.authors, operations.authors, {
    GET: listHandler({
      spec: authorListingSpec,
      collection: authorsCollection,
      page: listAuthorsPage,
      stream: streamAuthors,
      renderItem: renderAuthor,
    }),
    POST: createHandler(storedAuthor),
  });

  route(app, paths.author, operations.author, {
    GET: readHandler(storedAuthor),
    PUT: changeAuthor,
    PATCH: changeAuthor,
    DELETE: deleteHandler(storedAuthor),
  });

  route(app, paths.authorBooks, operations.authorBooks, {
    async GET(c) {
      const id = idParam(c, 'id', 'author');
      const ctx = c.get('ctx');
      const listing = parseListing(bookListingSpec, queryParams(c));
      const author = await findAuthor(c.get('database').db, { id });
      if (!author) throw authorNotFound(id);
      const database = c.get('database');
      const scope = { authorId: id };
      return sendListing(
        c,
        bookListingSpec,
        listing,
        authorBooksCollection(ctx, author),
        {
          page: (paged) => listBooksPage(database.db, paged, scope),
          stream: (all) => streamBooks(database, all, scope),
        },
        (book: StoredBook) => renderBook(book, ctx, { fields: listing.fields, asItem: true }),
      );
    },
  });
}

/** The author as a stored resource: PUT/PATCH change the name; DELETE only while they have no books. */
const storedAuthor = {
  kind: 'author',
  find: (db, id) => findAuthor(db, { id }),
  mayChange: (ctx) => ctx.policy.manageCatalogue(ctx.caller),
  fields: authorInputFields,
  update: updateAuthor,
  insert: insertAuthor,
  uri: (ctx, author) => ctx.uris.author(author.id),
  render: (author, ctx) => renderAuthor(author, ctx),
  invalidates: (ctx, author) => authorInvalidates(ctx.uris, author.id),
  mayDelete: (ctx, author) => ctx.policy.deleteAuthor(ctx.caller, author),
  remove: deleteAuthor,
  next: (ctx) => ctx.uris.authors(firstPage),
} satisfies CreatableResource<AuthorRecord, AuthorInput> & DeletableResource<AuthorRecord>;
const changeAuthor = changeHandler(storedAuthor);
