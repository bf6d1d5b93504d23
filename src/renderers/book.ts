/** @module Renders a book: its fields and availability, where to go from it, and what the caller may do. */
import { type Availability, type Book, bookInputFields } from '../domain/book.js';
import { borrowInputFields } from '../domain/loan.js';
import type { BookFacts } from '../domain/policy.js';
import type { Control, Resource } from '../hypermedia/model.js';
import type { RenderContext } from './context.js';
import { inputFields } from './fields.js';
import { firstPageOf } from './first-page.js';

export interface BookRenderOptions {
  /** Item fields to keep in the state (a listing's `fields`); the links stay. */
  fields?: string[] | undefined;
  /** Rendered as a member of a collection: links only, the controls live on the book's own document. */
  asItem?: boolean;
}

type RenderableBook = Book & Availability & { version?: number; hasLoans?: boolean };

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
      { rel: 'author', href: uris.author(book.author_id) },
      { rel: 'collection', href: firstPageOf(uris.books) },
    ],
    controls: options.asItem ? [] : bookControls(book, ctx),
  };
  if (book.version !== undefined) resource.version = book.version;
  return resource;
}

/** The facts the policy decides a book's controls from. */
export function bookFacts(book: RenderableBook): BookFacts {
  return { id: book.id, available: book.available, due_at: book.due_at, hasLoans: book.hasLoans ?? true };
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
    controls.push(
      {
        name: 'update',
        href,
        method: 'PUT',
        title: 'Update book',
        contentType: 'application/json',
        fields: inputFields(bookInputFields, { values: book, mode: 'change', choices: authorChoices }),
      },
      {
        name: 'edit',
        href,
        method: 'PATCH',
        title: 'Edit book',
        contentType: 'application/json',
        fields: inputFields(bookInputFields, { values: book, mode: 'change', choices: authorChoices }),
      },
    );
  }
  if (policy.deleteBook(caller, bookFacts(book)).allowed) {
    controls.push({ name: 'delete', href, method: 'DELETE', title: 'Delete book', fields: [] });
  }
  return controls;
}

/** Where the valid values of `author_id` come from: every author's id and name. */
export function authorOptions(ctx: RenderContext) {
  return { href: ctx.uris.authors({ fields: 'id,name' }), valueField: 'id', promptField: 'name' };
}

/** Where the valid values of `borrower_id` come from: every user's id and name. */
export function userOptions(ctx: RenderContext) {
  return { href: ctx.uris.users({ fields: 'id,name' }), valueField: 'id', promptField: 'name' };
}

/** Keeps only the requested fields, in the order the resource defines them. */
export function pick(state: Record<string, unknown>, fields: string[] | undefined): Record<string, unknown> {
  if (!fields) return state;
  return Object.fromEntries(Object.entries(state).filter(([name]) => fields.includes(name)));
}
