/**
 * @module Counts the facets a listing asks for over exactly the listing's WHERE (its search, filters and
 * `author=`), all of them in one statement (GROUPING SETS). Up to the listing's count limit of matching
 * items the counts are exact; past it they are counted over a bounded sample of the matches and marked
 * as estimates, so their cost is bounded whatever the catalogue's size.
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FacetCount, FacetCounts, FacetName } from '../../domain/facets.js';
import { chosenValues, type Listing } from '../../domain/listing.js';
import type { Db } from '../client.js';
import { rowsOf } from '../client.js';
import { type ListingScope, type ListingTable, listingWhere } from './listing.js';
import { planListingSearch, withQuery } from './listing-where.js';

/** How one facet is read from a listed row. */
export interface FacetColumn {
  /** The value counted, as `filter=` takes it (an author's id, a decade, a boolean, a language's code). */
  value: SQL | PgColumn;
  /** The value is a list, each of whose values is counted once for the row (a book's subject headings). */
  each?: true;
  /** The value is text (a code, a heading), as the database answers it. */
  text?: true;
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

type AskedFacet = FacetColumn & { name: FacetName };

/** The facets `listing.facets` names, counted over the listing within `scope`. */
export async function countFacets(
  db: Db,
  table: ListingTable,
  listing: Listing,
  columns: FacetColumns,
  scope: ListingScope = {},
): Promise<FacetCounts> {
  const asked = (listing.facets ?? []).flatMap((name): AskedFacet[] => {
    const column = columns[name];
    return column ? [{ name, ...column }] : [];
  });
  if (asked.length === 0) return { values: [], counted: 0, sampled: false, estimated: false };
  const search = await planListingSearch(db, table, listing);
  const where = await listingWhere(db, table, listing, scope.conditions, search);
  const core = search.query?.core;
  const coreWhere = core && (await listingWhere(db, table, listing, scope.conditions, withQuery(search, core)));
  // One more than the limit's multiple: a listing of exactly that many is told from a larger one.
  const sample = (listing.countLimit + 1) * SAMPLE_FACTOR;
  const read: Record<string, SQL.Aliased> = {};
  for (const facet of asked) {
    read[valueColumn(facet.name)] = sql`${facet.value}`.as(valueColumn(facet.name));
    if (facet.label) read[labelColumn(facet.name)] = sql`${facet.label}`.as(labelColumn(facet.name));
  }
  // Without ORDER BY the sample is the matches the plan meets first: the cheapest bounded read.
  const sampleOf = (condition: SQL | undefined) => db.select(read).from(table.from).where(condition).limit(sample);
  const matching = coreWhere ? sampledCoreFirst(sampleOf(coreWhere), sampleOf(where), sample) : sampleOf(where);
  const single = asked.filter((facet) => !facet.each);
  const lists = asked.filter((facet) => facet.each);
  // Every part answers the same columns: the facet, each facet's value (and label), the count.
  const columnsOf = (values: (facet: AskedFacet) => SQL[]) =>
    sql.join([...asked.flatMap(values), sql`count(*)::int as "n"`], sql`, `);
  const sets = single.map((facet) =>
    facet.label
      ? sql`(${ident(valueColumn(facet.name))}, ${ident(labelColumn(facet.name))})`
      : sql`(${ident(valueColumn(facet.name))})`,
  );
  // Which facet a group counts: the one whose value it is grouped by; '' for the grand total.
  const facetOf =
    single.length === 0
      ? sql`''`
      : sql.join(
          [
            sql`case`,
            ...single.map((facet) => sql`when grouping(${ident(valueColumn(facet.name))}) = 0 then ${facet.name}`),
            sql`else '' end`,
          ],
          sql` `,
        );
  const grouped = sql`select ${facetOf} as "facet", ${columnsOf((facet) =>
    facet.each ? [sql`null::text as ${ident(valueColumn(facet.name))}`] : facetColumns(facet),
  )}
    from "matching"
    group by grouping sets (${sql.join([sql`()`, ...sets], sql`, `)})`;
  // The total and the facets shown whole, then the top values of each facet with a `top`, read as a top-N
  // of its groups: sorting every group (at 10,000 matches nearly every author is one) cost more than the
  // count itself. Where values are chosen the listing has no others, so all of them fit. A list's values
  // are counted apart, one group per value of any matching row's list.
  const whole = ['', ...single.filter((facet) => facet.top === undefined).map((facet) => facet.name)];
  const topOf = (facet: AskedFacet) => Math.max(facet.top ?? 0, chosenValues(listing, facet.name).length);
  const parts = [
    sql`select * from "grouped" where "facet" in (${sql.join(
      whole.map((name) => sql`${name}`),
      sql`, `,
    )})`,
    // A row without a value (a book of no recorded language) is counted in the total, not as a value.
    ...single.flatMap((facet) => {
      if (facet.top === undefined) return [];
      const value = ident(valueColumn(facet.name));
      return [
        sql`(select * from "grouped" where "facet" = ${facet.name} and ${value} is not null
          order by "n" desc, ${value} limit ${topOf(facet)})`,
      ];
    }),
    ...lists.map(
      (facet) =>
        sql`(select ${facet.name} as "facet", ${columnsOf((other) =>
          other === facet ? [sql`"each"`] : facetColumns(other).map(() => sql`null`),
        )}
          from "matching", unnest(${ident(valueColumn(facet.name))}) as "each"
          group by "each" order by "n" desc, "each" limit ${topOf(facet)})`,
    ),
  ];
  const rows = rowsOf<Record<string, unknown>>(
    await db.execute(
      sql`with "matching" as (${matching}), "grouped" as (${grouped}) ${sql.join(parts, sql` union all `)}`,
    ),
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
    const value = row[valueColumn(name)];
    const label = row[labelColumn(name)];
    const facet = asked.find((each) => each.name === name);
    counts.push({
      name,
      value: facet?.text ? String(value) : typeof value === 'boolean' ? value : Number(value),
      ...(typeof label === 'string' && { label }),
      count: n,
    });
  }
  await labelChosen(db, listing, asked, counts);
  return { values: counts, counted, sampled: counted >= sample, estimated: counted > listing.countLimit };
}

/**
 * The matches of a search whose last word is a prefix, sampled from its core (the word whole) when the core
 * alone fills the sample; else from all of them, as without a core. A prefix reads the posting lists of
 * every word it begins into a bitmap (a common word's hundred thousand at 1M books), several times slower
 * than the word's own; a sample of the core's matches is as much a sample of the listing's. The whole is
 * read only when the core falls short (a one-time filter: its scan never starts otherwise).
 */
function sampledCoreFirst(core: SQLWrapper, whole: SQLWrapper, sample: number): SQL {
  const filled = sql`(select count(*) from "core") >= ${sample}`;
  return sql`with "core" as (${core})
    select * from "core" where ${filled}
    union all select * from (${whole}) as "whole" where not ${filled}`;
}

/** A facet's columns in a part: its value, and its label where it has one. */
function facetColumns(facet: AskedFacet): SQL[] {
  return [sql`${ident(valueColumn(facet.name))}`, ...(facet.label ? [sql`${ident(labelColumn(facet.name))}`] : [])];
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
