/**
 * @module Renders a listing's facet counts: each value labelled, counted, and linked to the listing
 * narrowed to it, or, when it is chosen already, to the listing without it.
 */
import {
  chosenValues,
  type FacetCount,
  type FacetCounts,
  type FacetName,
  facetFilters,
  facetTotals,
} from '../domain/facets.js';
import { type Filter, listingQuery, type PagedListing } from '../domain/listing.js';
import type { Facet, FacetValue } from '../hypermedia/model.js';
import type { Collection } from './collection.js';

const titles: Record<FacetName, string> = { author: 'Author', decade: 'Decade', available: 'Availability' };

/** A value in words: an author by name, a decade as "1810s", availability as a person says it. */
function labelOf(count: FacetCount): string {
  if (count.name === 'available') return count.value ? 'On the shelf' : 'All out';
  if (count.name === 'decade') return `${count.value}s`;
  return count.label ?? `Author ${count.value}`;
}

/** The order values are shown in: authors by how many items they have, decades in time, on the shelf first. */
function inOrder(name: FacetName, values: FacetCount[]): FacetCount[] {
  const key = (count: FacetCount) => (typeof count.value === 'boolean' ? (count.value ? 0 : 1) : count.value);
  return [...values].sort((a, b) => (name === 'author' ? b.count - a.count || key(a) - key(b) : key(a) - key(b)));
}

/**
 * The facets a listing asked for, from their counts. Estimated counts are scaled to the listing's total
 * (`total`, as its meta says it). A chosen value is always shown, counted or not.
 */
export function renderFacets(
  collection: Collection,
  listing: PagedListing,
  counts: FacetCounts,
  total: number,
): Facet[] {
  const totals = facetTotals(counts, total);
  return (listing.facets ?? []).map((name) => {
    // A value given twice (`filter=decade:1810&filter=decade:1810`) is one choice.
    const chosen = [...new Set(chosenValues(listing, name))];
    const counted = totals.filter((count) => count.name === name);
    const uncounted = chosen
      .filter((value) => !counted.some((count) => count.value === value))
      .map((value): FacetCount => ({ name, value: value as number | boolean, count: 0 }));
    const values = inOrder(name, [...counted, ...uncounted]).map((count): FacetValue => {
      const isChosen = chosen.includes(count.value);
      return {
        value: String(count.value),
        label: labelOf(count),
        count: count.count,
        chosen: isChosen,
        href: collection.uri(listingQuery(narrowed(listing, facetFilters[name], count.value, isChosen))),
      };
    });
    return { name, title: titles[name], values, ...(counts.estimated && { estimated: true as const }) };
  });
}

/** The listing with a filter value added (or, `removed`, taken away), from its first page. */
function narrowed(listing: PagedListing, field: string, value: number | boolean, removed: boolean): PagedListing {
  const filters: Filter[] = [];
  let found = false;
  for (const filter of listing.filters) {
    if (filter.field !== field) {
      filters.push(filter);
      continue;
    }
    found = true;
    const values = removed ? filter.values.filter((v) => v !== value) : [...filter.values, value];
    if (values.length > 0) filters.push({ field, values });
  }
  if (!found && !removed) filters.push({ field, values: [value] });
  const { cursor: _, ...rest } = listing;
  return { ...rest, filters, paging: { ...listing.paging, page: 1 } };
}
