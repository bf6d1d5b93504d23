/**
 * @module How a collection's listing maps onto its table (`ListingMapping`, checked against its spec by
 * `listingTable`), and which part of it a listing ranges over (`ListingScope`).
 */
import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { ListingSpec } from '../../domain/listing.js';
import type { AnchorQuery } from './listing-anchors.js';
import type { PlanTable } from './listing-plan.js';
import type { SearchTable } from './search.js';

/** A listing filter's values, as parsed from `filter=`. */
export type FilterValues = (string | number | boolean)[];

/**
 * How a collection's listing maps onto its table. Typed by the collection's `ListingSpec`, the one
 * declaration of its fields: the mapping names a column for exactly those fields, and a column or a
 * condition for exactly its filters and an order for its sorts, so the two cannot drift apart.
 */
export interface ListingMapping<Spec extends ListingSpec = ListingSpec> {
  /** The table listed. */
  from: PgTable;
  /** What each item reads, named as the API names it (order key values are read back by those names). */
  selection: SelectedFields;
  /** Each of the spec's fields → its column. */
  columns: { readonly [Field in keyof Spec['fields']]: PgColumn };
  id: PgColumn;
  /** How `query` searches it: its tsvector, configuration, and the dictionary of its words (`search.ts`). */
  search: SearchTable;
  /** Each of the spec's filters → its column, or its condition where it is not a plain column (a loan's `status`). */
  filters?: { readonly [Field in keyof Spec['filters']]: PgColumn | ((values: FilterValues) => SQL) };
  /**
   * Each of the spec's sorts (a hold's `position`) → what it is ordered by: an expression never null, read
   * with each row under a name of its own for the paging cursors.
   */
  sorts?: { readonly [Field in keyof Spec['sorts']]: SQL };
  /**
   * For the `author` parameter, absent where it does not apply: the column naming an item's author, how
   * authors' names are searched, and the query of the ids of the authors whose names match a `tsquery`.
   */
  authorNamed?: { column: PgColumn; names: SearchTable; authorIds: (query: SQL) => SQL };
}

/** A collection's listing mapping as `listingTable` checked it, with what the listing planner knows of it. */
export type ListingTable = ListingMapping & { plan: PlanTable };

/** The table mapping of a listing `spec`, checked against it (see `ListingMapping`). */
export function listingTable<const Spec extends ListingSpec>(spec: Spec, table: ListingMapping<Spec>): ListingTable {
  if (spec.exactFirst && !table.search.exact) throw new Error('a listing of exact matches first needs exact keys');
  const mapping = table as unknown as ListingMapping;
  return { ...mapping, plan: planTableOf(spec, mapping) };
}

/** The mapping as plain facts for the planner (`exactFirst` from the spec: where search needs `search.exact`). */
function planTableOf(spec: ListingSpec, table: ListingMapping): PlanTable {
  const author = table.authorNamed?.column;
  const authorField = Object.entries(table.columns as Record<string, PgColumn>).find(([, c]) => c === author)?.[0];
  return {
    selected: Object.keys(table.selection),
    derivedSorts: Object.keys(table.sorts ?? {}),
    exactFirst: spec.exactFirst === true,
    authorNamed: table.authorNamed !== undefined,
    ...(authorField !== undefined && { authorField }),
  };
}

/** Which part of a collection is listed, and how to count all of it without reading it. */
export interface ListingScope {
  conditions?: SQL[];
  /** A query answering the number of items in scope from a counter (constant time), where one is kept. */
  counted?: SQL;
  /**
   * By field: a query answering, from counters, how many items in scope have that field among the given
   * values. A listing filtered on that field alone is counted by it, exactly and in constant time.
   */
  countedBy?: Record<string, (values: FilterValues) => SQL>;
  /**
   * By field: where a deep page=N jump of the whole scope in that field's order (then id order) begins,
   * from counters per range of the field's values (`listing-anchors.ts`).
   */
  anchors?: Record<string, AnchorQuery>;
}

/** The column of a listing field. */
export function columnOf(table: ListingMapping, field: string): PgColumn {
  const column = (table.columns as Record<string, PgColumn>)[field];
  if (!column) throw new Error(`no column for listing field ${field}`);
  return column;
}
