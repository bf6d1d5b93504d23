/**
 * @module Answers a listing request in the form it asked for: a page envelope when paging parameters
 * were given, otherwise the whole collection streamed as it is read.
 */
import type { Context } from 'hono';
import { DEFAULT_PER_PAGE } from '../domain/limits.js';
import type { Listing, PagedListing } from '../domain/listing.js';
import type { Resource } from '../hypermedia/model.js';
import { type Collection, type PageFacts, renderPage, renderStream } from '../renderers/collection.js';
import type { AppEnv } from './env.js';
import { send, sendStream } from './respond.js';

/** How to read one collection's rows, either way. */
export interface ListingReader<Row> {
  page(listing: PagedListing): Promise<PageFacts & { rows: Row[] }>;
  /** Every row, in the batches read. */
  stream(listing: Listing): AsyncIterable<Row[]>;
}

export async function sendListing<Row>(
  c: Context<AppEnv>,
  listing: Listing,
  collection: Collection,
  read: ListingReader<Row>,
  renderItem: (row: Row) => Resource,
): Promise<Response> {
  // A format read by people shows pages even where the JSON form would stream the whole collection.
  const paging = listing.paging ?? (c.get('format').alwaysPaged ? { page: 1, perPage: DEFAULT_PER_PAGE } : undefined);
  // Searches and whole-collection streams are the expensive reads: each spends from the caller's quota.
  const limiter = c.get('rateLimiter');
  if (listing.query !== undefined) limiter?.spend(c, 'search');
  if (!paging) limiter?.spend(c, 'stream');
  const limited = { ...listing, countLimit: c.get('listingCountLimit') };
  if (paging) {
    const paged = { ...limited, paging };
    // A page (its count and rows) takes one turn among listing reads, so many never crowd out the rest.
    const { rows, ...facts } = await c.get('database').listingReads.run(() => read.page(paged));
    return send(c, renderPage(collection, paged, rows.map(renderItem), facts));
  }
  return sendStream(c, renderStream(collection, listing, renderBatches(read.stream(limited), renderItem)));
}

/** Renders each batch of rows as it arrives; stopping early stops the source. */
async function* renderBatches<Row>(
  batches: AsyncIterable<Row[]>,
  renderItem: (row: Row) => Resource,
): AsyncGenerator<Resource[]> {
  for await (const rows of batches) yield rows.map(renderItem);
}
