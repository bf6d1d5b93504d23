/** @module Links into collections lead to their first page, so following links always finds controls. */
import { DEFAULT_PER_PAGE } from '../domain/limits.js';
import type { ListingParams } from '../hypermedia/uris.js';

/** Frozen: URIs of it are expanded once per template (`uris.ts`). */
export const firstPage = Object.freeze({ page: 1, per_page: DEFAULT_PER_PAGE } as const);

type ListingUri = (params: ListingParams) => string;
const expanded = new WeakMap<ListingUri, string>();

/**
 * `uri(firstPage)`, expanded once per collection and base (each `Uris` has its own functions): every
 * item of a listing links to its collection, and a stream has millions of items.
 */
export function firstPageOf(uri: ListingUri): string {
  let href = expanded.get(uri);
  if (href === undefined) {
    href = uri(firstPage);
    expanded.set(uri, href);
  }
  return href;
}
