/**
 * @module Renders the profile (RFC 6906): every link relation and control of the vocabulary, and for
 * each control where it submits to and the fields it carries there, typed and bounded by the same
 * definitions the controls and the validators use.
 */
import { type Affordance, defaultFields } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import { TOP_AUTHORS, TOP_LANGUAGES, TOP_SUBJECTS } from '../domain/facets.js';
import { PUBLISHER_MAX_LENGTH, SUBJECT_MAX_LENGTH, SUBJECTS_MAX } from '../domain/limits.js';
import type { Resource } from '../hypermedia/model.js';
import { otherClientError, problemTypes, problemTypeUri } from '../hypermedia/problems.js';
import type { Deprecation, Vocabulary } from '../hypermedia/vocabulary.js';

/** Somewhere a control submits to: the affordance declared there, at the path the route serves. */
export interface ControlTarget {
  /** The target's path as a URI template (`/books/{id}`). */
  path: string;
  affordance: Affordance<never>;
}

/** Quotas per kind of expensive work, as the rate limiter applies them. */
export type RateQuotas = Readonly<Record<string, { limit: number; windowSeconds: number }>>;

export function renderProfile(
  ctx: RenderContext,
  vocabulary: Vocabulary,
  targets: readonly ControlTarget[],
  rateLimits?: RateQuotas,
): Resource {
  const { uris } = ctx;
  const rels = Object.fromEntries(
    Object.entries(vocabulary.rels).map(([name, entry]) => [
      name,
      { means: entry.means, ...deprecation(entry.deprecated) },
    ]),
  );
  const controls = Object.fromEntries(
    Object.entries(vocabulary.controls).map(([name, entry]) => {
      const declared = targets.filter((target) => target.affordance.name === name);
      return [
        name,
        {
          does: entry.does,
          method: entry.method,
          // Gathered from the declarations, each of which states where and for whom it is offered.
          appears: declared.map(({ path, affordance }) => `${path}: ${affordance.appears}`).join('; '),
          ...deprecation(entry.deprecated),
          targets: Object.fromEntries(
            declared.map((target) => [uris.pathTemplate(target.path), targetState(target.affordance)]),
          ),
        },
      ];
    }),
  );
  return {
    kind: 'profile',
    state: {
      name: 'Catalogue profile',
      description:
        'What the link relations and controls of the catalogue mean. Follow links by rel; submit a control by ' +
        'its method to its href, with the fields it lists (query parameters for GET, a JSON body otherwise).',
      vocabulary: { rels, controls },
      paging: {
        cursor:
          'next, prev and last links carry an opaque `cursor` instead of `page`: it names the page and where it ' +
          'starts, so following it costs what the first page costs. Use it as given, with the listing it came from.',
        total_items_estimated:
          'Present (true) in a page’s meta only when total_items and total_pages are estimates: more items ' +
          'match a filter or search than the catalogue counts exactly. Whole collections are always exact.',
      },
      // Not `facets`: in the JSON format that name is a page's counted facets.
      listing_facets: {
        parameter:
          '`facets=author,decade,available,language,subject` (any of them, comma-separated, each once) on a listing of books asks ' +
          'for a page envelope (page 1 unless page or cursor says otherwise) with a `facets` array: per facet ' +
          '`name`, `title`, `values` and, when the counts are estimates, `estimated: true`. The search control ' +
          'lists it among its fields.',
        values:
          'Each value: `value` (what `filter=` takes: `author_id:…`, `decade:…`, `available:…`, `language:…`, ' +
          '`subject:…`), `label`, ' +
          '`count` (items of the whole listing with it), `chosen` and `href`. Unchosen: the listing narrowed to ' +
          'it, from its first page, whose meta.total_items is the count. Chosen (its filter is in the listing): ' +
          `the listing without it; a chosen value is always listed. Authors: the ${TOP_AUTHORS} with the most items; ` +
          'decades in time (`decade:1810` is 1810–1819); availability: on the shelf, all out; languages (by ' +
          `English name): the ${TOP_LANGUAGES} with the most items; subject headings: the ${TOP_SUBJECTS} with ` +
          'the most items. A book counts once for each of its ' +
          'subjects; one without a language counts for none.',
        estimated:
          'Counts are exact while the listing matches at most as many items as a total is counted exactly for; ' +
          'beyond that they are counted over a sample of the matches, scaled to the total, and marked ' +
          '`estimated`. In HAL each value is also a `facet` link.',
      },
      // What a book records besides the seed's fields: how each is written and how it is answered.
      book_fields: {
        isbn:
          'ISBN-13, 13 digits (null: none). Sent as ISBN-10 or ISBN-13, with or without hyphens or spaces; a wrong ' +
          'check digit is refused. One book per ISBN: a second is 409. `filter=isbn:…` takes any of those forms, ' +
          'and an ISBN alone in `query` finds its book first.',
        language:
          'ISO 639-2/B code, as MARC 21 records carry it (`eng`, `ger`, `fre`; null: not recorded). Sent as an ISO ' +
          '639-1 (`de`) or 639-2 code (`ger` or `deu`), in any case. `filter=language:…` takes the same.',
        subjects:
          `Subject headings, a list (empty: none) of at most ${SUBJECTS_MAX}, each at most ${SUBJECT_MAX_LENGTH} ` +
          'characters, trimmed, each once ' +
          '(the first spelling of those equal but for case). `filter=subject:…` names one exactly.',
        publisher: `The publisher\u2019s name, at most ${PUBLISHER_MAX_LENGTH} characters (null: not recorded).`,
        clearing: 'null clears any of them in a change (PUT or PATCH); an empty list clears the subjects too.',
      },
      problems: {
        explanation:
          'With `Accept: application/problem+json`, every error is an RFC 9457 problem document (Content-Type ' +
          '`application/problem+json`): `type` (one of these: the profile\u2019s URI, the name as its fragment), ' +
          '`title`, `status`, `detail` (what went wrong this time), `code` (the status, as in the default ' +
          'shape) and, for invalid or unprocessable input, `errors`: `[{"field", "message"}]` by the names the controls use. Without it, errors are ' +
          '`{"error":{"code","message","details?"}}`.',
        types: Object.fromEntries(
          [...Object.entries(problemTypes), ['4xx', otherClientError] as const].map(([status, type]) => [
            `problem-${type.slug}`,
            {
              type: problemTypeUri(uris.profile(), type),
              status: status === '4xx' ? status : Number(status),
              title: type.title,
              means: type.means,
            },
          ]),
        ),
      },
      limits: {
        rate: rateLimits
          ? Object.fromEntries(
              Object.entries(rateLimits).map(([kind, quota]) => [
                kind,
                { quota: quota.limit, window_seconds: quota.windowSeconds },
              ]),
            )
          : 'none',
        explanation:
          'Searches (`query`) and suggestions, whole collections without `page`/`per_page` (streams) and writes spend from ' +
          'per-caller quotas: a caller is a signed-in user, or a client address when anonymous. Responses that ' +
          'spend announce `RateLimit-Policy` and `RateLimit` (IETF httpapi draft): the quota, what is left ' +
          '(r) and seconds until the window turns (t). A spent quota answers 429 with `Retry-After`. Reading ' +
          'single documents and pages is not limited. A 503 with `Retry-After` means the database is ' +
          'unavailable or a query ran past its time budget: retry after that many seconds.',
      },
    },
    links: [
      { rel: 'self', href: uris.profile() },
      { rel: 'service-desc', href: uris.openapi(), title: 'OpenAPI description' },
    ],
    controls: [],
  };
}

/** The fields as a control offers them: a change (PUT or PATCH) makes every field optional. */
function targetState(affordance: Affordance<never>) {
  return {
    appears: affordance.appears,
    ...(affordance.body && { contentType: 'application/json' }),
    fields: Object.fromEntries(defaultFields(affordance).map(({ name, ...rest }) => [name, rest])),
  };
}

function deprecation(deprecated: Deprecation | undefined) {
  return deprecated ? { deprecated: { ...deprecated } } : {};
}
