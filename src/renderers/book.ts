/** @module Renders a book: its fields and copies, where to go from it, and what the caller may do. */
import { offered } from '../affordances/affordance.js';
import { borrowBook, changeBook, deleteBook } from '../affordances/books.js';
import type { RenderContext } from '../affordances/context.js';
import { holdBook } from '../affordances/holds.js';
import type { BibliographicFields, BookWithStateJson } from '../domain/book.js';
import type { BookSubject } from '../domain/policy.js';
import type { Control, Link, Resource } from '../hypermedia/model.js';
import { firstPage } from '../hypermedia/uris.js';
import { pick } from './pick.js';

export interface BookRenderOptions {
  /** Item fields to keep in the state (a listing's `fields`); the links stay. */
  fields?: string[] | undefined;
  /** Rendered as a member of a collection: links only, the controls live on the book's own document. */
  asItem?: boolean;
}

type RenderableBook = BookSubject & BibliographicFields & { version?: number; author_name?: string };

export function renderBook(
  book: RenderableBook | BookWithStateJson,
  ctx: RenderContext,
  options: BookRenderOptions = {},
): Resource {
  const { uris } = ctx;
  const links: Link[] = [
    { rel: 'self', href: uris.book(book.id) },
    // The author's name as the link's title: what a person (or a generic client's UI) shows for it.
    {
      rel: 'author',
      href: uris.author(book.author_id),
      ...(book.author_name !== undefined && { title: book.author_name }),
    },
    { rel: 'collection', href: uris.firstPages.books },
  ];
  // A member whose state the database wrote (a stream in a format that takes it: `Format.takesStateJson`).
  if ('state_json' in book) return { kind: 'book', state: {}, stateJson: book.state_json, links, controls: [] };
  if (!options.asItem) links.push(...circulationLinks(book, ctx));
  const controls = options.asItem ? [] : bookControls(book, ctx);
  const resource: Resource = {
    kind: 'book',
    // The order in which the database writes a streamed member's state too (`memberStateJson`).
    state: pick(
      {
        id: book.id,
        title: book.title,
        publication_year: book.publication_year,
        author_id: book.author_id,
        isbn: book.isbn,
        language: book.language,
        subjects: book.subjects,
        publisher: book.publisher,
        available: book.available,
        due_at: book.due_at,
        copies_total: book.copies_total,
        copies_available: book.copies_available,
        ...(book.mine?.hold && {
          hold_status: book.mine.hold.status,
          hold_position: book.mine.hold.position,
          hold_ready_until: book.mine.hold.ready_until,
        }),
      },
      options.fields,
    ),
    links,
    controls,
  };
  if (book.version !== undefined) resource.version = book.version;
  return resource;
}

/** Its copies (everyone who reads it), its queue (librarians), and the caller's own hold on it. */
function circulationLinks(book: RenderableBook, ctx: RenderContext): Link[] {
  const { uris, policy, caller } = ctx;
  const links: Link[] = [{ rel: 'copies', href: uris.bookCopies(book.id, firstPage), title: 'Copies' }];
  if (policy.seeBookHolds(caller).allowed) {
    links.push({ rel: 'holds', href: uris.bookHolds(book.id, firstPage), title: 'Holds (the queue)' });
  }
  if (caller.kind === 'user') {
    // A librarian may add `borrower_id`, `copy_id` and `branch_id` to ask about someone else's loan.
    links.push({ rel: 'explain', href: uris.bookExplain(book.id), title: 'Why a loan of it gets its terms' });
  }
  const hold = book.mine?.hold;
  if (hold) {
    const where =
      hold.status === 'ready'
        ? 'ready for you'
        : hold.status === 'in_transit'
          ? 'a copy is on its way to your pickup branch'
          : `number ${hold.position} in the queue`;
    links.push({ rel: 'hold', href: uris.hold(hold.id), title: `Your hold: ${where}` });
  }
  return links;
}

function bookControls(book: RenderableBook, ctx: RenderContext): Control[] {
  return [
    ...offered(ctx, { book }, [borrowBook]),
    ...offered(ctx, book, [holdBook]),
    ...offered(ctx, book, [changeBook.update, changeBook.edit, deleteBook]),
  ];
}
