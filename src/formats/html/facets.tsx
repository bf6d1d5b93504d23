/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
/**
 * @module The facets of a listing as a sidebar: the chosen values first, as chips whose link removes them,
 * then each facet's values with their counts, each a link to the listing narrowed to it (`rel="facet"`, as
 * HAL names them). The hrefs are the model's (`FacetValue.href`); nothing here builds a URL.
 */
import type { Facet, FacetValue } from '../../hypermedia/model.js';
// biome-ignore lint/correctness/noUnusedImports: the JSX below compiles to h(…) and Fragment (the pragmas above).
import { type FC, Fragment, h } from './jsx.js';

/**
 * The sidebar. Without facets, `ask` names the search form whose submission asks for them (a button
 * here submits it), or nothing is drawn.
 */
export const FacetSidebar: FC<{ facets: Facet[] | undefined; ask?: string }> = ({ facets, ask }) => {
  if (!facets) {
    if (!ask) return null;
    return (
      <div class="facets">
        <button type="submit" form={ask} class="secondary">
          Show ways to narrow this search
        </button>
      </div>
    );
  }
  const chosen = facets.flatMap((facet) => facet.values.filter((v) => v.chosen).map((value) => ({ facet, value })));
  return (
    <nav class="facets" aria-labelledby="facets-title">
      <h2 id="facets-title">Narrow your search</h2>
      {chosen.length > 0 && (
        <ul class="chips" aria-label="Chosen">
          {chosen.map(({ facet, value }) => (
            <li>
              <a rel="facet" href={value.href} data-chosen="" aria-label={`Remove ${facet.title}: ${value.label}`}>
                {facet.title}: {value.label}
                <span aria-hidden="true"> ×</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {facets
        .filter((facet) => facet.values.length > 0)
        .map((facet) => (
          <section class="facet" data-facet={facet.name}>
            <h3>{facet.title}</h3>
            <ul>
              {facet.values.map((value) => (
                <li>
                  <FacetValueItem value={value} estimated={facet.estimated === true} />
                </li>
              ))}
            </ul>
            {facet.estimated && <p class="estimated">Counts are estimates.</p>}
          </section>
        ))}
    </nav>
  );
};

/** A value and its count: a link narrowing to it, or, once chosen, marked (its chip removes it). */
const FacetValueItem: FC<{ value: FacetValue; estimated: boolean }> = ({ value, estimated }) => (
  <>
    {value.chosen ? (
      <span class="chosen" aria-current="true">
        {value.label}
      </span>
    ) : (
      <a rel="facet" href={value.href}>
        {value.label}
      </a>
    )}{' '}
    <span class="count">{`${estimated ? '\u2248' : ''}${value.count}`}</span>
  </>
);
