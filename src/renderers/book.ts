/** @module Renders a book: its fields and availability, where to go from it, and what the caller may do. */
import { offered } from '../affordances/affordance.js';
import { borrowBook, changeBook, deleteBook } from '../affordances/books.js';
import type { RenderContext } from '../affordances/context.js';
import type { Availability, Book } from '../domain/book.js';
import type { Control, Resource } from '../hypermedia/model.js';
import { firstPageOf } from './first-page.js';
import { pick } from './pick.js';

export interface BookRenderOptions {
  /** Item fields to keep in the state (a listing's `fields`); the links stay. */
  fields?: string[] | undefined;
  /** Rendered as a member of a collection: links only, the controls live on the book's own document. */
  asItem?: boolean;
}

type RenderableBook = Book & Availability & { version?: number; hasLoans?: boolean; author_name?: string };

export function renderBook(book: RenderableBook, ctx: RenderContext, options: BookRenderOptions = {}): Resource {
  const { uris } = ctx;
  const resource: Resource = {
    kind: 'book',
    state: pick(
      {
        id: book.id,
        title: book.title,
        publication_year: book.publication_year,
        author_id: book.author_id,
        available: book.available,
        due_at: book.due_at,
      },
      options.fields,
    ),
    links: [
      { rel: 'self', href: uris.book(book.id) },
      // The author's name as the link's title: what a person (or a generic client's UI) shows for it.
      {
        rel: 'author',
        href: uris.author(book.author_id),
        ...(book.author_name !== undefined && { title: book.author_name }),
      },
      { rel: 'collection', href: firstPageOf(uris.books) },
    ],
    controls: options.asItem ? [] : bookControls(book, ctx),
  };
  if (book.version !== undefined) resource.version = book.version;
  return resource;
}

function bookControls(book: RenderableBook, ctx: RenderContext): Control[] {
  return [
    ...offered(ctx, { book }, [borrowBook]),
    ...offered(ctx, book, [changeBook.update, changeBook.edit, deleteBook]),
  ];
}
