/**
 * @module The extension point for media types. A format translates the neutral resource model into
 * bytes of one media type and decides nothing: which links and controls exist was settled by the
 * renderers. Adding a media type is a new module implementing `Format` plus one line in `registry.ts`.
 */
import type { Control, Link, Resource, ResourceKind, ResourceStream } from '../hypermedia/model.js';

/** Where a document is shown, for formats that present a whole page (a browser's). */
export interface PageContext {
  /** The href of the root document, for a way home from anywhere. */
  home: string;
  /** Who is signed in and how to sign in or out, for a page's header: decided by the policy, not the format. */
  session?: SessionView;
  /** How the listing on this page can be re-sorted; absent on anything but a page of a collection. */
  listing?: ListingView;
}

/** The caller as a page header shows them, with the session controls the policy allows them. */
export interface SessionView {
  /** The signed-in user, with the href of their own document; absent for an anonymous caller. */
  user?: { name: string; href: string };
  /** `login` for an anonymous caller, `logout` for a browser session: the same controls the root offers. */
  controls: Control[];
}

/**
 * A page of a listing as a person meets it: its search words, its order and narrowing (which a new search
 * keeps), where each sortable field's header leads, and where suggestions come from as a person types.
 */
export interface ListingView {
  /** The words searched for, if any. */
  query?: string;
  /** The `sort` asked for, as sent (`-publication_year`); absent for the listing's own order. */
  sortedBy?: string;
  /** The parameters that narrow the listing (`filter`, `author`), as sent: a new search keeps them. */
  narrowing: [name: string, value: string][];
  /** The root's templated link to suggestions for what a person is typing, when the catalogue offers one. */
  suggestions?: Link;
  /**
   * Each field the listing can be sorted by: the href of the first page sorted by it (reversed when it is
   * already the first sort key, ascending), and the order it is in now if it is the first sort key.
   */
  sort: Record<string, { href: string; order?: 'ascending' | 'descending' }>;
}

/** The error shape's content, for formats that present errors their own way. */
export interface ErrorContent {
  code: number;
  message: string;
  details?: Record<string, string>;
}

/** A file a format needs served beside its documents (a stylesheet, a script). */
export interface Asset {
  /** Path under the site root, e.g. `/assets/catalogue.css`. */
  path: string;
  contentType: string;
  body: string;
}

export interface Format {
  /** The media type produced, as sent in `Content-Type` (parameters included). */
  contentType: string;
  /** Media types in `Accept` that select this format, most specific first. */
  mediaTypes: readonly string[];
  /**
   * The kinds of resource it can write, where it writes only some (a MARC record is a book's); absent, every
   * kind. A format of some kinds answers reads only: a write asking for it alone is refused (406) before it
   * changes anything, and a read of another kind is answered in the format `Accept` likes next (406 if none).
   */
  kinds?: readonly (ResourceKind | ResourceStream['kind'])[];
  /** A whole document; `page` is given to formats that draw whole pages (`drawsPages`). */
  resource(resource: Resource, page?: PageContext): string;
  /** It draws whole pages for people, with a header: it reads the `PageContext`, which others are spared. */
  drawsPages?: boolean;
  /**
   * A collection sent whole as its items arrive, in pieces of whole characters (each is encoded on its
   * own), a group of items each (`groupsOf`).
   */
  stream(stream: ResourceStream): AsyncIterable<string>;
  /**
   * It writes a streamed member whose state came as JSON text (`Resource.stateJson`): the reader of a
   * listing may then have the database write the members' state (docs/performance/what-stays.md).
   */
  takesStateJson?: boolean;
  /** Collections are always shown a page at a time (a person reads pages, not a million rows). */
  alwaysPaged?: boolean;
  /**
   * After a successful write, send the client on to the result with `303 See Other` instead of the
   * representation (post/redirect/get, for browsers submitting forms).
   */
  redirectAfterWrite?: boolean;
  /**
   * Its search forms send every field, filled or not (an HTML form does): an empty query parameter then
   * means "not given" rather than an invalid value.
   */
  sendsEmptyParameters?: boolean;
  /** Errors in this format; without it, errors use the seed's JSON error shape. */
  error?(error: ErrorContent, page?: PageContext): string;
  /** Files served with this format. */
  assets?: readonly Asset[];
}

/** Whether `format` writes every kind of resource: what a write, and a protocol of its own, answer in. */
export function writesEveryKind(format: Format): boolean {
  return format.kinds === undefined;
}

/** Whether `format` can write a resource, a page or a stream of this kind. */
export function writesKind(format: Format, kind: ResourceKind | ResourceStream['kind']): boolean {
  return format.kinds === undefined || format.kinds.includes(kind);
}

/**
 * A streamed batch in groups written as one string each (one `JSON.stringify`, say): few enough members
 * that a group's text stays well under 64K characters, which the server encodes and forgets (see
 * `sendStream`). V8 stores a string as one byte per character or two, by how it was built (text from a
 * two-byte string stays two-byte, even where every character is ASCII): a two-byte string of 64K characters
 * is over 128 KiB, which V8 allocates as a large object, measured at 40 times the cost of a smaller one.
 * 25 members of the largest format (MARCXML, about 1K characters a book) are some 25K characters, and the
 * rendered batches of 100 (`renderBatches`) split into four.
 */
export function* groupsOf<T>(batch: T[], size = 25): Generator<T[]> {
  for (let at = 0; at < batch.length; at += size) yield batch.slice(at, at + size);
}
