/** @module Renders a book: its fields, where to go from it, and what the caller may do to it. */
import { type Book, bookInputFields } from '../domain/book.js';
import { policy } from '../domain/policy.js';
import type { Control, Resource } from '../hypermedia/model.js';
import type { RenderContext } from './context.js';
import { inputFields } from './fields.js';
import { firstPage } from './first-page.js';

export interface BookRenderOptions {
  /** Item fields to keep in the state (a listing's `fields`); the links stay. */
  fields?: string[];
  /** Rendered as a member of a collection: links only, the controls live on the book's own document. */
  asItem?: boolean;
}

export function renderBook(book: Book & { version?: number }, ctx: RenderContext, options: BookRenderOptions = {}) {
  const { uris } = ctx;
  const resource: Resource = {
    kind: 'book',
    state: pick(
      { id: book.id, title: book.title, publication_year: book.publication_year, author_id: book.author_id },
      options.fields,
    ),
    links: [
      { rel: 'self', href: uris.book(book.id) },
      { rel: 'author', href: uris.author(book.author_id) },
      { rel: 'collection', href: uris.books(firstPage) },
    ],
    controls: options.asItem ? [] : bookControls(book, ctx),
  };
  if (book.version !== undefined) resource.version = book.version;
  return resource;
}

function bookControls(book: Book, ctx: RenderContext): Control[] {
  const { uris, caller } = ctx;
  const href = uris.book(book.id);
  const authorChoices = { author_id: authorOptions(ctx) };
  const controls: Control[] = [];
  if (policy.changeBook(caller).allowed) {
    controls.push(
      {
        name: 'update',
        href,
        method: 'PUT',
        title: 'Update book',
        contentType: 'application/json',
        fields: inputFields(bookInputFields, { values: book, choices: authorChoices }),
      },
      {
        name: 'edit',
        href,
        method: 'PATCH',
        title: 'Edit book',
        contentType: 'application/json',
        fields: inputFields(bookInputFields, { values: book, required: false, choices: authorChoices }),
      },
    );
  }
  if (policy.deleteBook(caller).allowed) {
    controls.push({ name: 'delete', href, method: 'DELETE', title: 'Delete book', fields: [] });
  }
  return controls;
}

/** Where the valid values of `author_id` come from: every author's id and name. */
export function authorOptions(ctx: RenderContext) {
  return { href: ctx.uris.authors({ fields: 'id,name' }), valueField: 'id', promptField: 'name' };
}

/** Keeps only the requested fields, in the order the resource defines them. */
export function pick(state: Record<string, unknown>, fields: string[] | undefined): Record<string, unknown> {
  if (!fields) return state;
  return Object.fromEntries(Object.entries(state).filter(([name]) => fields.includes(name)));
}
