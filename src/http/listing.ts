/**
 * @module Answers a listing request in the form it asked for: a page envelope when paging parameters
 * were given, otherwise the whole collection streamed as it is read.
 */
import type { Context, Handler } from 'hono';
import type { RenderContext } from '../affordances/context.js';
import type { Database, Db } from '../db/client.js';
import type { StreamReading } from '../db/queries/listing.js';
import { PageTooDeep } from '../domain/errors.js';
import type { FacetCounts } from '../domain/facets.js';
import { DEFAULT_PER_PAGE } from '../domain/limits.js';
import {
  type Listing,
  type ListingSpec,
  listingQuery,
  type PagedListing,
  type PageFacts,
  parseListing,
  sortableFields,
} from '../domain/listing.js';
import { authorize, type Decision } from '../domain/policy.js';
import type { ListingView } from '../formats/format.js';
import type { Resource } from '../hypermedia/model.js';
import { type Collection, renderPage, renderStream } from '../renderers/collection.js';
import { rootLink } from '../renderers/root.js';
import type { AppEnv } from './env.js';
import { formatFor } from './middleware/negotiate.js';
import { queryParams } from './params.js';
import { send, sendStream } from './respond.js';

/** How to read one collection's rows, either way. */
export interface ListingReader<Row> {
  page(listing: PagedListing): Promise<PageFacts & { rows: Row[] }>;
  /** Every row, in the batches read; a batch yielded is the consumer's, which may empty it as it goes. */
  stream(listing: Listing, reading: StreamReading): AsyncIterable<Row[]>;
  /** The facets a page asks for, counted over the whole listing; absent where none are offered. */
  facets?(listing: PagedListing): Promise<FacetCounts>;
}

export async function sendListing<Row>(
  c: Context<AppEnv>,
  spec: ListingSpec,
  listing: Listing,
  collection: Collection,
  read: ListingReader<Row>,
  renderItem: (row: Row) => Resource,
): Promise<Response> {
  // Settled before any quota is spent: where the format asked for cannot write these items, the next it can.
  const format = formatFor(c, `${collection.itemKind}-${listing.paging ? 'page' : 'list'}`);
  // A format read by people shows pages even where the JSON form would stream the whole collection.
  const paging = listing.paging ?? (format.alwaysPaged ? { page: 1, perPage: DEFAULT_PER_PAGE } : undefined);
  // Searches and whole-collection streams are the expensive reads: each spends from the caller's quota.
  const limiter = c.get('rateLimiter');
  if (listing.query !== undefined) await limiter?.spend(c, 'search');
  if (!paging) await limiter?.spend(c, 'stream');
  const limited = { ...listing, countLimit: c.get('listingCountLimit'), jumpLimit: c.get('pageJumpLimit') };
  if (paging) {
    const paged = { ...limited, paging };
    const { listingReads } = c.get('database');
    const countFacets = paged.facets && read.facets?.bind(read);
    // A page (its count and rows) takes one turn among listing reads, so many never crowd out the rest;
    // its facets, when asked for, take another alongside it.
    const [{ rows, ...facts }, facetCounts] = await Promise.all([
      listingReads
        .run(() => read.page(paged))
        .catch((error: unknown) => {
          // A page too deep for its number is refused naming the deepest one that is not, with this listing's URI.
          if (!(error instanceof PageTooDeep)) throw error;
          const deepest = { ...paged, cursor: undefined, paging: { ...paged.paging, page: error.deepest } };
          throw error.at(collection.uri(listingQuery(deepest)));
        }),
      countFacets && listingReads.run(() => countFacets(paged)),
    ]);
    const resource = renderPage(collection, paged, rows.map(renderItem), facts, facetCounts);
    if (!format.drawsPages) return send(c, resource);
    const suggestions = rootLink(c.get('ctx'), 'suggestions');
    return send(c, resource, {
      listing: { ...listingView(spec, paged, collection), ...(suggestions && { suggestions }) },
    });
  }
  const rows = read.stream(limited, { stateJson: format.takesStateJson === true });
  return sendStream(c, renderStream(collection, listing, renderBatches(rows, renderItem)));
}

/**
 * What a page drawn for people needs to re-sort the listing: for each sortable field, the first page
 * sorted by it, or by it reversed when it already leads the sort ascending (a second click reverses).
 * Search words, filters and page size are kept; the position (page, cursor) starts over.
 */
export function listingView(spec: ListingSpec, listing: PagedListing, collection: Collection): ListingView {
  const lead = listing.sort[0];
  const sort: ListingView['sort'] = {};
  for (const field of sortableFields(spec)) {
    const current = lead?.field === field ? (lead.descending ? 'descending' : 'ascending') : undefined;
    const next = { field, descending: current === 'ascending' };
    const href = collection.uri(
      listingQuery({ ...listing, sort: [next], cursor: undefined, paging: { ...listing.paging, page: 1 } }),
    );
    sort[field] = current ? { href, order: current } : { href };
  }
  const { query, sort: sortedBy, filter = [], author } = listingQuery(listing);
  const narrowing: ListingView['narrowing'] = filter.map((value) => ['filter', value]);
  if (author !== undefined) narrowing.push(['author', author]);
  return {
    ...(query !== undefined && { query }),
    ...(sortedBy !== undefined && { sortedBy }),
    narrowing,
    sort,
  };
}

/**
 * Items rendered at a time. A batch from the database holds thousands of rows; rendered all at once, their
 * resources (a dozen small objects each) lived until the last of them was written, outlived two young
 * collections and were promoted. Streaming a million books promoted about 2.7 MB per young collection
 * (26 full collections), and the collector's threads used half as much CPU as the server itself. Rendered
 * a hundred at a time, under 1 MB (10 full collections), and the collector's threads used a third less.
 */
const RENDERED_AT_ONCE = 100;

/** Renders each batch of rows as the format takes them; stopping early stops the source. */
async function* renderBatches<Row>(
  batches: AsyncIterable<Row[]>,
  renderItem: (row: Row) => Resource,
): AsyncGenerator<Resource[]> {
  for await (const rows of batches) {
    for (let at = 0; at < rows.length; at += RENDERED_AT_ONCE) {
      const group = rows.slice(at, at + RENDERED_AT_ONCE);
      // The batch is the reader's to drop, not to read again: rendered rows go now, not with the batch.
      (rows as unknown[]).fill(undefined, at, at + RENDERED_AT_ONCE);
      yield group.map(renderItem);
    }
  }
}

/** A collection served whole: who may list it, how it reads, and how each item renders as a member. */
export interface ListedCollection<Row> {
  spec: ListingSpec;
  /** Who may list it; anyone who may read the catalogue when absent. */
  mayList?: (ctx: RenderContext) => Decision;
  collection(ctx: RenderContext): Collection;
  page(db: Db, listing: PagedListing): Promise<PageFacts & { rows: Row[] }>;
  stream(database: Database, listing: Listing, reading: StreamReading): AsyncIterable<Row[]>;
  /** The facets a page asks for; absent where the collection offers none. */
  facets?(db: Db, listing: PagedListing): Promise<FacetCounts>;
  renderItem(row: Row, ctx: RenderContext, options: { fields: string[] | undefined; asItem: true }): Resource;
}

/** GET of a collection: a page, or the whole collection streamed, filtered, sorted and searched. */
export function listHandler<Row>(listed: ListedCollection<Row>): Handler<AppEnv> {
  return function list(c: Context<AppEnv>) {
    const ctx = c.get('ctx');
    if (listed.mayList) authorize(listed.mayList(ctx));
    const database = c.get('database');
    const { facets } = listed;
    const listing = parseListing(listed.spec, queryParams(c));
    return sendListing(
      c,
      listed.spec,
      listing,
      listed.collection(ctx),
      {
        page: (paged) => listed.page(database.db, paged),
        stream: (all, reading) => listed.stream(database, all, reading),
        facets: facets && ((paged) => facets(database.db, paged)),
      },
      (row: Row) => listed.renderItem(row, ctx, { fields: listing.fields, asItem: true }),
    );
  };
}
