/**
 * @module Renders collections: a page envelope (`data` + `meta` + paging links) when paging was asked
 * for, or a stream of items for the bare array. Which collection it is comes from a `Collection`.
 */
import { DEFAULT_PER_PAGE } from '../domain/limits.js';
import { type Listing, listingQuery, totalPages } from '../domain/listing.js';
import type { Control, ItemKind, Link, Resource, ResourceStream } from '../hypermedia/model.js';
import type { ListingParams } from '../hypermedia/uris.js';

/** One collection: how to address it with listing parameters, and what it offers. */
export interface Collection {
  itemKind: ItemKind;
  /** The collection's URI with the given listing parameters. */
  uri: (params: ListingParams) => string;
  /** Controls of the collection (create, search), already decided for the caller. */
  controls: Control[];
  /** Extra links (e.g. `up` from an author's books to the author). */
  links: Link[];
}

export interface PageMeta {
  page: number;
  per_page: number;
  total_pages: number;
  total_items: number;
}

export function renderPage(
  collection: Collection,
  listing: Listing & { paging: NonNullable<Listing['paging']> },
  items: Resource[],
  totalItems: number,
): Resource {
  const { page, perPage } = listing.paging;
  const pages = totalPages(totalItems, perPage);
  const last = Math.max(pages, 1);
  const at = (n: number) => collection.uri(listingQuery(listing, n));
  const links: Link[] = [
    { rel: 'self', href: at(page) },
    { rel: 'first', href: at(1) },
    { rel: 'last', href: at(last) },
  ];
  if (page > 1) links.push({ rel: 'prev', href: at(Math.min(page - 1, last)) });
  if (page < pages) links.push({ rel: 'next', href: at(page + 1) });
  const meta: PageMeta = { page, per_page: perPage, total_pages: pages, total_items: totalItems };
  return {
    kind: `${collection.itemKind}-page`,
    state: { meta },
    links: [...links, ...collection.links],
    controls: collection.controls,
    items,
  };
}

export function renderStream(collection: Collection, listing: Listing, items: AsyncIterable<Resource>): ResourceStream {
  const firstPage = collection.uri(listingQuery({ ...listing, paging: { page: 1, perPage: DEFAULT_PER_PAGE } }));
  return {
    kind: `${collection.itemKind}-list`,
    links: [
      { rel: 'self', href: collection.uri(listingQuery(listing)) },
      { rel: 'first', href: firstPage },
      ...collection.links,
    ],
    controls: collection.controls,
    items,
  };
}
