/**
 * @module Renders collections: a page envelope (`data` + `meta` + paging links) when paging was asked
 * for, or a stream of items for the bare array. Which collection it is comes from a `Collection`.
 */

import type { Cursor } from '../domain/cursor.js';
import type { FacetCounts } from '../domain/facets.js';
import { DEFAULT_PER_PAGE } from '../domain/limits.js';
import {
  cursorFor,
  type Listing,
  listingQuery,
  type PagedListing,
  type PageFacts,
  totalPages,
} from '../domain/listing.js';
import type { Control, ItemKind, Link, Resource, ResourceStream } from '../hypermedia/model.js';
import type { ListingParams } from '../hypermedia/uris.js';
import { renderFacets } from './facets.js';

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
  /** Present (and true) only when `total_items` is an estimate: more items match than are counted exactly. */
  total_items_estimated?: true;
}

/**
 * A page envelope. `next` and `prev` carry keyset cursors from the page's last and first items, `last`
 * a cursor reading the end backwards, so following any of them costs what the first page costs; `first`
 * is `page=1`. `self` is the request as made. With `facetCounts` (the listing asked for facets), the
 * page carries its facets.
 */
export function renderPage(
  collection: Collection,
  listing: PagedListing,
  items: Resource[],
  facts: PageFacts,
  facetCounts?: FacetCounts,
): Resource {
  const { perPage } = listing.paging;
  const { page, ranked, edges } = facts;
  const pages = totalPages(facts.totalItems, perPage);
  const at = (n: number) => collection.uri(listingQuery(listing, n));
  const via = (cursor: Omit<Cursor, 'fit'>) =>
    collection.uri(listingQuery(listing, { cursor: cursorFor(listing, cursor) }));
  const last = pages > 1 ? via({ page: pages, direction: 'last', keys: [], ranked }) : at(1);
  const links: Link[] = [
    { rel: 'self', href: collection.uri(listingQuery(listing)) },
    { rel: 'first', href: at(1) },
    { rel: 'last', href: last },
  ];
  // From past the end there is no item to start from: back is the last page.
  if (page > 1)
    links.push({
      rel: 'prev',
      href: edges ? via({ page: page - 1, direction: 'before', keys: edges.first, ranked }) : last,
    });
  if (facts.more && edges)
    links.push({ rel: 'next', href: via({ page: page + 1, direction: 'after', keys: edges.last, ranked }) });
  // "Did you mean": the same listing from its first page, with the misspelt words corrected.
  if (facts.corrected) {
    const corrected = { ...listing, ...facts.corrected };
    links.push({
      rel: 'correction',
      href: collection.uri(listingQuery(corrected, 1)),
      title: facts.corrected.query ?? facts.corrected.author,
    });
  }
  const meta: PageMeta = {
    page,
    per_page: perPage,
    total_pages: pages,
    total_items: facts.totalItems,
    ...(facts.estimated && { total_items_estimated: true as const }),
  };
  return {
    kind: `${collection.itemKind}-page`,
    state: { meta },
    links: [...links, ...collection.links],
    controls: collection.controls,
    items,
    ...(facetCounts && { facets: renderFacets(collection.uri, listing, facetCounts, facts.totalItems) }),
  };
}

export function renderStream(
  collection: Collection,
  listing: Listing,
  items: AsyncIterable<Resource[]>,
): ResourceStream {
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
