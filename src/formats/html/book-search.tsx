/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
/**
 * @module A page of books as a patron searches it: one search box (suggesting as a person types, through
 * the root's `suggestions` link), the labelled orders of the search control's `sort` field, "did you mean"
 * from the page's `correction` link, facets with removable chips, each result with its availability, and
 * paging by the page's links. Every parameter stays reachable in the control's own form. It translates the
 * model: which links, controls and facets there are was decided by the renderers.
 */
import { type Control, type Facet, isInline, type Resource } from '../../hypermedia/model.js';
import type { ListingView, PageContext } from '../format.js';
import { document } from './document.js';
import { FacetSidebar } from './facets.js';
import { ControlForm, Controls, forPeople } from './forms.js';
// biome-ignore lint/correctness/noUnusedImports: the JSX below compiles to h(…) and Fragment (the pragmas above).
import { type FC, Fragment, h } from './jsx.js';
import { Links, linkOf, PAGING, Pager, titleOf } from './parts.js';

/** The facets a patron's page asks for, when the search control takes `facets`: every one the model has. */
const PATRON_FACETS: readonly Facet['name'][] = ['author', 'decade', 'available', 'language', 'subject'];

/** The form's id: the sidebar's button to show the facets submits it. */
const FORM_ID = 'patron-search';

/** Rels a patron page shows in its own places (paging, "did you mean") or not at all (itself). */
const PLACED = new Set([...PAGING, 'self', 'correction']);

interface Meta {
  page?: number;
  per_page?: number;
  total_pages?: number;
  total_items?: number;
  total_items_estimated?: true;
}

export function bookSearchPage(resource: Resource, page: PageContext | undefined): string {
  const title = titleOf(resource);
  const listing = page?.listing;
  const search = resource.controls.find((c) => c.name === 'search' && c.method === 'GET');
  const meta = (resource.state.meta ?? {}) as Meta;
  const correction = linkOf(resource.links, 'correction');
  const asksFacets = search?.fields.some((f) => f.name === 'facets') === true;
  const others = forPeople(
    resource.controls.filter((c) => c !== search),
    page?.session,
  );
  return document(
    title,
    page,
    <>
      <h1>{title}</h1>
      {search && <SearchForm control={search} listing={listing} perPage={meta.per_page} asksFacets={asksFacets} />}
      {correction && (
        <p class="correction">
          Did you mean{' '}
          <a rel="correction" href={correction.href}>
            {correction.title ?? 'the corrected search'}
          </a>
          ?
        </p>
      )}
      <Links links={resource.links.filter((l) => !PLACED.has(l.rel) && !l.templated)} />
      <div class="search-layout">
        <FacetSidebar facets={resource.facets} ask={asksFacets && !resource.facets ? FORM_ID : undefined} />
        <section class="results" aria-labelledby="results-title">
          <h2 id="results-title">
            <Summary meta={meta} />
          </h2>
          {(resource.items ?? []).length === 0 ? (
            <p class="empty">No books found.</p>
          ) : (
            <ol class="results">
              {(resource.items ?? []).map((item) => (
                <Result item={item} />
              ))}
            </ol>
          )}
          {/* One page has nowhere to go: its first and last links are itself. */}
          {(meta.total_pages ?? 0) > 1 && <Pager links={resource.links} />}
        </section>
      </div>
      {search && (
        <details class="all-parameters">
          <summary>All search parameters</summary>
          <ControlForm control={search} />
        </details>
      )}
      <Controls controls={others} />
    </>,
    { script: 'search.js' },
  );
}

/**
 * The search box on top: the words (a combobox of suggestions once the script runs, where the page names
 * the root's `suggestions` template), the order, and what the page keeps: its narrowing, its page size and
 * the facets it asks for.
 */
const SearchForm: FC<{ control: Control; listing?: ListingView; perPage?: number; asksFacets: boolean }> = ({
  control,
  listing,
  perPage,
  asksFacets,
}) => {
  const query = control.fields.find((f) => f.name === 'query');
  if (!query) return null;
  const sort = control.fields.find((f) => f.name === 'sort');
  const choices = sort?.options && isInline(sort.options) ? sort.options : [];
  const sortedBy = listing?.sortedBy ?? '';
  const suggestions = listing?.suggestions?.templated ? listing.suggestions.href : undefined;
  const pageSize = perPage ?? control.fields.find((f) => f.name === 'per_page')?.value;
  return (
    <search>
      <form class="searchbox" id={FORM_ID} method="get" action={control.href} data-method="GET">
        <label for="searchbox-query">{query.title ?? 'Search'}</label>
        <span class="combobox">
          <input
            type="search"
            id="searchbox-query"
            name="query"
            value={listing?.query}
            maxlength={query.maxLength}
            data-suggestions={suggestions}
          />
        </span>
        {choices.length > 0 && (
          <span class="sort">
            <label for="searchbox-sort">{sort?.title ?? 'Sort by'}</label>
            <select id="searchbox-sort" name="sort">
              {choices.map((choice) => (
                <option value={choice.value} selected={choice.value === sortedBy}>
                  {choice.prompt}
                </option>
              ))}
              {/* An order given some other way (the full form, a link) stays as it is. */}
              {!choices.some((c) => c.value === sortedBy) && (
                <option value={sortedBy} selected={true}>
                  {sortedBy}
                </option>
              )}
            </select>
          </span>
        )}
        {listing?.narrowing.map(([name, value]) => (
          <input type="hidden" name={name} value={value} data-narrowing="" />
        ))}
        {asksFacets && <input type="hidden" name="facets" value={PATRON_FACETS.join(',')} />}
        {pageSize !== undefined && <input type="hidden" name="per_page" value={String(pageSize)} />}
        <button type="submit">Search</button>
      </form>
    </search>
  );
};

/** "42 books, page 2 of 3": the page's meta in words. */
const Summary: FC<{ meta: Meta }> = ({ meta }) => {
  const total = meta.total_items ?? 0;
  return (
    <>
      {meta.total_items_estimated ? 'About ' : ''}
      <span data-field="total_items">{total}</span> {total === 1 ? 'book' : 'books'}
      {(meta.total_pages ?? 0) > 1 && (
        <>
          , page <span data-field="page">{meta.page}</span> of <span data-field="total_pages">{meta.total_pages}</span>
        </>
      )}
    </>
  );
};

/** One book found: its title (to the book, where the borrow control lives), author, year, availability. */
const Result: FC<{ item: Resource }> = ({ item }) => {
  const { state } = item;
  const self = linkOf(item.links, 'self');
  const author = linkOf(item.links, 'author');
  const title = typeof state.title === 'string' ? state.title : `Book ${String(state.id ?? '')}`;
  const year = state.publication_year;
  return (
    <li class="result">
      <h3>
        {self ? (
          <a rel="item" href={self.href}>
            {title}
          </a>
        ) : (
          title
        )}
      </h3>
      {(author || year !== undefined) && (
        <p class="facts">
          {author && (
            <>
              by{' '}
              <a rel="author" href={author.href}>
                {author.title ?? 'the author'}
              </a>
            </>
          )}
          {author && year !== undefined && ', '}
          {year !== undefined && <span data-field="publication_year">{String(year)}</span>}
        </p>
      )}
      <Availability state={state} />
    </li>
  );
};

/** "On the shelf" or "All out, due back 2025-03-01", from the book's `available`, `due_at` and copies. */
const Availability: FC<{ state: Record<string, unknown> }> = ({ state }) => {
  if (typeof state.available !== 'boolean') return null;
  const { copies_available: free, copies_total: total, due_at: due } = state;
  if (state.available) {
    const copies =
      typeof free === 'number' && typeof total === 'number' && total > 1 ? ` (${free} of ${total} copies)` : '';
    return (
      <p class="availability" data-available="true">
        On the shelf{copies}
      </p>
    );
  }
  return (
    <p class="availability" data-available="false">
      All out
      {typeof due === 'string' && (
        <>
          , due back <time datetime={due}>{due.slice(0, 10)}</time>
        </>
      )}
    </p>
  );
};
