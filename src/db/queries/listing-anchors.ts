/**
 * @module Where a deep `page=N` jump begins, from counters per range of the order's first key rather than
 * an OFFSET walk over every item before the page: the books and authors per block of 4,096 ids, and the
 * books per publication year, each kept by triggers in the writing transaction (migrations 0004, 0039).
 * The ranges before the page are summed (a few thousand rows at ten million books); the page is then read
 * from the start of its range, skipping fewer items than the range holds.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { rowsOf } from '../client.js';
import { collectionBlockCounts, yearBookCounts } from '../schema/index.js';

/** Ids per block of `collection_block_counts` (`id >> 12`). */
const BLOCK = 4096;

/**
 * Where a page beginning `offset` items into a listing begins: the first value of the order's key in the
 * range the page begins in (`from`: read from it on, `>=` it ascending, `<=` it descending), and how many
 * items of the ranges before it precede it (`before`).
 */
export interface Anchor {
  from: number;
  before: number;
}

/** Answers the anchor of a page `offset` items deep, in the key's order ascending or descending. */
export type AnchorQuery = (offset: number, descending: boolean) => SQL;

/** The anchor of a collection's listing in id order, from its counts per block of ids. */
export function idBlockAnchor(collection: 'books' | 'authors'): AnchorQuery {
  const c = collectionBlockCounts;
  return (offset, descending) => {
    const order = sql.raw(descending ? 'desc' : 'asc');
    // Descending, a block is read from its last id down.
    const from = descending ? sql`block * ${BLOCK} + ${BLOCK - 1}` : sql`block * ${BLOCK}`;
    return sql`
      select ${from} as "from", before from (
        select block, n, sum(n) over (order by block ${order}) - n as before
        from (select ${c.block} as block, sum(${c.n}) as n from ${c} where ${c.collection} = ${collection} group by ${c.block}) as blocks
      ) as running
      where before + n > ${offset}
      order by block ${order}
      limit 1`;
  };
}

/** The anchor of the books in publication year order, from their counts per year. */
export const yearAnchor: AnchorQuery = (offset, descending) => {
  const y = yearBookCounts;
  const order = sql.raw(descending ? 'desc' : 'asc');
  return sql`
    select year as "from", before from (
      select ${y.publicationYear} as year, ${y.n} as n, sum(${y.n}) over (order by ${y.publicationYear} ${order}) - ${y.n} as before
      from ${y}
    ) as running
    where before + n > ${offset}
    order by year ${order}
    limit 1`;
};

/** The anchor the query answers; none when the page begins past the listing's last item. */
export async function readAnchor(db: Db, query: SQL): Promise<Anchor | undefined> {
  const [row] = rowsOf<{ from: number | string; before: number | string }>(await db.execute(query));
  return row && { from: Number(row.from), before: Number(row.before) };
}
