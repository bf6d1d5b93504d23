/**
 * @module Renders a listing's facet counts: each value labelled, counted, and linked to the listing
 * narrowed to it, or, when it is chosen already, to the listing without it.
 */
import { type FacetCount, type FacetCounts, type FacetName, facetFilters, facetTotals } from '../domain/facets.js';
import { languageName } from '../domain/identifiers.js';
import { chosenValues, type Filter, listingQuery, type PagedListing } from '../domain/listing.js';
import type { Facet, FacetValue } from '../hypermedia/model.js';
import type { ListingParams } from '../hypermedia/uris.js';

const titles: Record<FacetName, string> = {
  author: 'Author',
  decade: 'Decade',
  available: 'Availability',
  language: 'Language',
  subject: 'Subject',
};

/**
 * A value in words: an author by name, a decade as "1810s", availability as a person says it, a language
 * by its English name, a subject heading as it is.
 */
function labelOf(count: FacetCount): string {
  if (count.name === 'available') return count.value ? 'On the shelf' : 'All out';
  if (count.name === 'decade') return `${count.value}s`;
  if (count.name === 'language') return languageName(String(count.value)) ?? String(count.value);
  if (count.name === 'subject') return String(count.value);
  return count.label ?? `Author ${count.value}`;
}

/** Facets whose values are shown by how many items have them; the others in their own order. */
const byCount: ReadonlySet<FacetName> = new Set(['author', 'language', 'subject']);

/**
 * The order values are shown in: authors, languages and subjects by how many items they have (then by
 * value), decades in time, on the shelf first.
 */
function inOrder(name: FacetName, values: FacetCount[]): FacetCount[] {
  const inItsOrder = (a: FacetCount, b: FacetCount) => {
    if (typeof a.value === 'boolean' || typeof b.value === 'boolean') return a.value === b.value ? 0 : a.value ? -1 : 1;
    if (typeof a.value === 'number' && typeof b.value === 'number') return a.value - b.value;
    return String(a.value).localeCompare(String(b.value));
  };
  return [...values].sort((a, b) => (byCount.has(name) ? b.count - a.count || inItsOrder(a, b) : inItsOrder(a, b)));
}

/**
 * The facets a listing asked for, from their counts, each value linked through `uri` (the collection's
 * with listing parameters). Estimated counts are scaled to the listing's total (`total`, as its meta says
 * it). A chosen value is always shown, counted or not.
 */
export function renderFacets(
  uri: (params: ListingParams) => string,
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
      .map((value): FacetCount => ({ name, value, count: 0 }));
    const values = inOrder(name, [...counted, ...uncounted]).map((count): FacetValue => {
      const isChosen = chosen.includes(count.value);
      return {
        value: String(count.value),
        label: labelOf(count),
        count: count.count,
        chosen: isChosen,
        href: uri(listingQuery(narrowed(listing, facetFilters[name], count.value, isChosen))),
      };
    });
    return { name, title: titles[name], values, ...(counts.estimated && { estimated: true as const }) };
  });
}

/** The listing with a filter value added (or, `removed`, taken away), from its first page. */
function narrowed(listing: PagedListing, field: string, value: FacetCount['value'], removed: boolean): PagedListing {
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
