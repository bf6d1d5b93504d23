/** @module Renders an author: their fields, their books, and what the caller may do to them. */
import { offered } from '../affordances/affordance.js';
import { changeAuthor, deleteAuthor } from '../affordances/authors.js';
import type { RenderContext } from '../affordances/context.js';
import type { Author } from '../domain/author.js';
import type { Control, Resource } from '../hypermedia/model.js';
import { firstPage } from '../hypermedia/uris.js';
import { pick } from './pick.js';

export interface AuthorRenderOptions {
  fields?: string[];
  /** Rendered as a member of a collection: links only. */
  asItem?: boolean;
}

/** `hasBooks` decides whether `delete` is offered; it is needed for a full document, not for an item. */
export function renderAuthor(
  author: Author & { version?: number; hasBooks?: boolean },
  ctx: RenderContext,
  options: AuthorRenderOptions = {},
): Resource {
  const { uris } = ctx;
  const resource: Resource = {
    kind: 'author',
    state: pick({ id: author.id, name: author.name }, options.fields),
    links: [
      { rel: 'self', href: uris.author(author.id) },
      { rel: 'books', href: uris.authorBooks(author.id, firstPage), title: `Books by ${author.name}` },
      { rel: 'collection', href: uris.firstPages.authors },
    ],
    controls: options.asItem ? [] : authorControls(author, ctx),
  };
  if (author.version !== undefined) resource.version = author.version;
  return resource;
}

function authorControls(author: Author & { hasBooks?: boolean }, ctx: RenderContext): Control[] {
  return offered(ctx, author, [changeAuthor.update, changeAuthor.edit, deleteAuthor]);
}
