/** @module Authors: the collection, one author, and an author's books. */
import type { Hono } from 'hono';
import { addAuthor, changeAuthor, deleteAuthor, searchAuthors } from '../../affordances/authors.js';
import { searchAuthorBooks } from '../../affordances/books.js';
import {
  type AuthorRecord,
  findAuthor,
  insertAuthor,
  listAuthorsPage,
  deleteAuthor as removeAuthor,
  streamAuthors,
  updateAuthor,
} from '../../db/queries/authors.js';
import { countBookFacets, listBooksPage, streamBooks } from '../../db/queries/books.js';
import type { AuthorInput } from '../../domain/author.js';
import type { BookWithStateJson, StoredBook } from '../../domain/book.js';
import { parseListing } from '../../domain/listing.js';
import { authorListingSpec, bookListingSpec } from '../../domain/listings.js';
import { firstPage, paths } from '../../hypermedia/uris.js';
import { renderAuthor } from '../../renderers/author.js';
import { renderBook } from '../../renderers/book.js';
import { authorBooksCollection, authorsCollection } from '../../renderers/collections.js';
import { authorInvalidates } from '../../renderers/invalidations.js';
import type { AppEnv } from '../env.js';
import { listHandler, sendListing } from '../listing.js';
import { idParam, queryParams } from '../params.js';
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

const authorNotFound = (id: number) => notFound('author', id);

export function authorRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    paths.authors,
    { GET: searchAuthors, POST: addAuthor },
    {
      GET: listHandler({
        spec: authorListingSpec,
        collection: authorsCollection,
        page: listAuthorsPage,
        stream: streamAuthors,
        renderItem: renderAuthor,
      }),
      POST: createHandler(storedAuthor, addAuthor),
    },
  );

  route(
    app,
    paths.author,
    { GET: { summary: 'An author' }, PUT: changeAuthor.update, PATCH: changeAuthor.edit, DELETE: deleteAuthor },
    {
      GET: readHandler(storedAuthor),
      PUT: changeHandler(storedAuthor, changeAuthor.update),
      PATCH: changeHandler(storedAuthor, changeAuthor.edit),
      DELETE: deleteHandler(storedAuthor, deleteAuthor),
    },
  );

  route(
    app,
    paths.authorBooks,
    { GET: searchAuthorBooks },
    {
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
            stream: (all, reading) => streamBooks(database, all, reading, scope),
            facets: (paged) => countBookFacets(database.db, paged, scope),
          },
          (book: StoredBook | BookWithStateJson) => renderBook(book, ctx, { fields: listing.fields, asItem: true }),
        );
      },
    },
  );
}

/** The author as a stored resource; what may be done to them is declared in `affordances/authors.ts`. */
const storedAuthor = {
  kind: 'author',
  find: (db, id) => findAuthor(db, { id }),
  update: updateAuthor,
  insert: insertAuthor,
  uri: (ctx, author) => ctx.uris.author(author.id),
  render: (author, ctx) => renderAuthor(author, ctx),
  invalidates: (ctx, author) => authorInvalidates(ctx.uris, author.id),
  remove: removeAuthor,
  next: (ctx) => ctx.uris.authors(firstPage),
} satisfies CreatableResource<AuthorRecord, AuthorInput> & DeletableResource<AuthorRecord>;
