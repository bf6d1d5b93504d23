/**
 * @module Facets: the properties a listing of books can be narrowed by (`facets=author,decade,language`),
 * the filter each one narrows with, and how counts over a sample of a large listing become estimates.
 */
import { YEAR_MAX, YEAR_MIN } from './limits.js';

/** Every facet a listing may offer, in the order a request's `facets` is checked against. */
export const FACET_NAMES = ['author', 'decade', 'available', 'language', 'subject'] as const;

export type FacetName = (typeof FACET_NAMES)[number];

/** The `filter=` field a facet's values narrow a listing with (`filter=author_id:7`). */
export const facetFilters = {
  author: 'author_id',
  decade: 'decade',
  available: 'available',
  language: 'language',
  subject: 'subject',
} as const satisfies Record<FacetName, string>;

/** Most values of the author facet shown: the authors with the most matching books (chosen ones besides). */
export const TOP_AUTHORS = 10;
/** Most languages shown, those of the most matching books (chosen ones besides). */
export const TOP_LANGUAGES = 10;
/** Most subject headings shown, those of the most matching books (chosen ones besides). */
export const TOP_SUBJECTS = 10;

/** The decade of a year: the years from it to nine after it (1810 → 1810–1819; -5 is in decade -10). */
export function decadeOf(year: number): number {
  return Math.floor(year / 10) * 10;
}

/** The decades a book's publication year can fall in: those of the first and last years accepted. */
export const DECADE_MIN = decadeOf(YEAR_MIN);
export const DECADE_MAX = decadeOf(YEAR_MAX);

/** A value of one facet, as counted: the value `filter=` takes, and what the database names it by. */
export interface FacetCount {
  name: FacetName;
  /** An author's id, a decade, availability, a language's code, a subject heading. */
  value: number | boolean | string;
  /** The stored name of the value, where it has one (an author's). */
  label?: string;
  count: number;
}

/** The counts of the facets a listing asked for. */
export interface FacetCounts {
  values: FacetCount[];
  /** How many matching items were counted: all of them, or the sample's bound when more match. */
  counted: number;
  /** Only a sample of the matching items was counted (`counted` of them): more match. */
  sampled: boolean;
  /**
   * More items match than the listing counts exactly (its count limit): the counts are estimates, and a
   * narrowed listing's total may be one too.
   */
  estimated: boolean;
}

/**
 * The counts as a listing answers them: as counted, or, over a sample, scaled to the listing's total
 * (`total`, never taken below the sample). A value seen in the sample counts at least 1: it exists.
 */
export function facetTotals(counts: FacetCounts, total: number): FacetCount[] {
  if (!counts.sampled || counts.counted === 0 || total <= counts.counted) return counts.values;
  const factor = total / counts.counted;
  return counts.values.map((value) => ({ ...value, count: Math.max(1, Math.round(value.count * factor)) }));
}
