/** @module Renders a book: its fields and availability, where to go from it, and what the caller may do. */
import { type Availability, type Book, bookInputFields } from '../domain/book.js';
import { borrowInputFields } from '../domain/loan.js';
import { bookFacts } from '../domain/policy.js';
import type { Control, Resource } from '../hypermedia/model.js';
import type { RenderContext } from './context.js';
import { changeControls, deleteControl } from './controls.js';
import { authorOptions, inputFields, userOptions } from './fields.js';
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
  const { uris, caller, policy } = ctx;
  const href = uris.book(book.id);
  const authorChoices = { author_id: authorOptions(ctx) };
  const controls: Control[] = [];
  if (policy.borrow(caller, bookFacts(book)).allowed) {
    controls.push({
      name: 'borrow',
      href: uris.borrow(book.id),
      method: 'POST',
      title: 'Borrow this book',
      contentType: 'application/json',
      fields: policy.lendForOthers(caller)
        ? inputFields(borrowInputFields, { choices: { borrower_id: userOptions(ctx) } })
        : [],
    });
  }
  if (policy.manageCatalogue(caller).allowed) {
    const fields = inputFields(bookInputFields, { values: book, mode: 'change', choices: authorChoices });
    controls.push(...changeControls(href, 'book', fields));
  }
  if (policy.deleteBook(caller, bookFacts(book)).allowed) {
    controls.push(deleteControl(href, 'Delete book'));
  }
  return controls;
}
