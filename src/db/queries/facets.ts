/**
 * @module Counts the facets a listing asks for over exactly the listing's WHERE (its search, filters and
 * `author=`), all of them in one statement (GROUPING SETS). Up to the listing's count limit of matching
 * items the counts are exact; past it they are counted over a bounded sample of the matches and marked
 * as estimates, so their cost is bounded whatever the catalogue's size.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { chosenValues, type FacetCount, type FacetCounts, type FacetName } from '../../domain/facets.js';
import type { Listing } from '../../domain/listing.js';
import type { Db } from '../client.js';
import { rowsOf } from '../client.js';
import { type ListingScope, type ListingTable, listingWhere } from './listing.js';

/** How one facet is read from a listed row. */
export interface FacetColumn {
  /** The value counted, as `filter=` takes it (an author's id, a decade, a boolean). */
  value: SQL | PgColumn;
  /** The name stored with the value (an author's), counted together with it. */
  label?: SQL | PgColumn;
  /** Only the values with the most items, this many (chosen ones besides); every value when absent. */
  top?: number;
  /** The names of chosen values no matching item has, so they are shown by name all the same. */
  labels?: (values: number[]) => SQL;
}

/** The facets a collection offers, each read from its table. */
export type FacetColumns = Partial<Record<FacetName, FacetColumn>>;

/** Matching items counted, as a multiple of the count limit, when there are more than the limit. */
const SAMPLE_FACTOR = 10;

/** The facets `listing.facets` names, counted over the listing within `scope`. */
export async function countFacets(
  db: Db,
  table: ListingTable,
  listing: Listing,
  columns: FacetColumns,
  scope: ListingScope = {},
): Promise<FacetCounts> {
  const asked = (listing.facets ?? []).flatMap((name) => {
    const column = columns[name];
    return column ? [{ name, ...column }] : [];
  });
  if (asked.length === 0) return { values: [], counted: 0, sampled: false, estimated: false };
  const where = await listingWhere(db, table, listing, scope.conditions);
  // One more than the limit's multiple: a listing of exactly that many is told from a larger one.
  const sample = (listing.countLimit + 1) * SAMPLE_FACTOR;
  const read: Record<string, SQL.Aliased> = {};
  for (const facet of asked) {
    read[valueColumn(facet.name)] = sql`${facet.value}`.as(valueColumn(facet.name));
    if (facet.label) read[labelColumn(facet.name)] = sql`${facet.label}`.as(labelColumn(facet.name));
  }
  // Without ORDER BY the sample is the matches the plan meets first: the cheapest bounded read.
  const matching = db.select(read).from(table.from).where(where).limit(sample);
  const sets = asked.map((facet) =>
    facet.label
      ? sql`(${ident(valueColumn(facet.name))}, ${ident(labelColumn(facet.name))})`
      : sql`(${ident(valueColumn(facet.name))})`,
  );
  // Which facet a group counts: the one whose value it is grouped by; '' for the grand total.
  const facetOf = sql.join(
    [
      sql`case`,
      ...asked.map((facet) => sql`when grouping(${ident(valueColumn(facet.name))}) = 0 then ${facet.name}`),
      sql`else '' end`,
    ],
    sql` `,
  );
  const groupedBy = asked.flatMap((facet) => [
    ident(valueColumn(facet.name)),
    ...(facet.label ? [ident(labelColumn(facet.name))] : []),
  ]);
  const grouped = sql`select ${facetOf} as "facet", ${sql.join(groupedBy, sql`, `)}, count(*)::int as "n"
    from (${matching}) as "matching"
    group by grouping sets ((), ${sql.join(sets, sql`, `)})`;
  // The total and the facets shown whole, then the top values of each facet with a `top`, read as a top-N
  // of its groups: sorting every group (at 10,000 matches nearly every author is one) cost more than the
  // count itself. Where values are chosen the listing has no others, so all of them fit.
  const whole = ['', ...asked.filter((facet) => facet.top === undefined).map((facet) => facet.name)];
  const parts = [
    sql`select * from "grouped" where "facet" in (${sql.join(
      whole.map((name) => sql`${name}`),
      sql`, `,
    )})`,
    ...asked.flatMap((facet) =>
      facet.top === undefined
        ? []
        : [
            sql`(select * from "grouped" where "facet" = ${facet.name} order by "n" desc, ${ident(
              valueColumn(facet.name),
            )} limit ${Math.max(facet.top, chosenValues(listing, facet.name).length)})`,
          ],
    ),
  ];
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(sql`with "grouped" as (${grouped}) ${sql.join(parts, sql` union all `)}`),
  );
  let counted = 0;
  const counts: FacetCount[] = [];
  for (const row of rows) {
    const name = row.facet as FacetName | '';
    const n = Number(row.n);
    if (name === '') {
      counted = n;
      continue;
    }
    const value = row[valueColumn(name)] as number | boolean;
    const label = row[labelColumn(name)];
    counts.push({
      name,
      value: typeof value === 'boolean' ? value : Number(value),
      ...(typeof label === 'string' && { label }),
      count: n,
    });
  }
  await labelChosen(db, listing, asked, counts);
  return { values: counts, counted, sampled: counted >= sample, estimated: counted > listing.countLimit };
}

/** Names of the chosen values that no matching item has (an author chosen, then a search finding none by them). */
async function labelChosen(
  db: Db,
  listing: Listing,
  asked: (FacetColumn & { name: FacetName })[],
  counts: FacetCount[],
): Promise<void> {
  for (const facet of asked) {
    if (!facet.labels) continue;
    const missing = chosenValues(listing, facet.name).filter(
      (value): value is number =>
        typeof value === 'number' && !counts.some((c) => c.name === facet.name && c.value === value),
    );
    if (missing.length === 0) continue;
    for (const row of rowsOf<{ value: number; label: string }>(await db.execute(facet.labels(missing)))) {
      counts.push({ name: facet.name, value: Number(row.value), label: row.label, count: 0 });
    }
  }
}

const valueColumn = (name: FacetName) => `f_${name}`;
const labelColumn = (name: FacetName) => `f_${name}_label`;
const ident = (name: string) => sql.identifier(name);
