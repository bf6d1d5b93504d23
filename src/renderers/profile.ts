/**
 * @module Renders the profile (RFC 6906): every link relation and control of the vocabulary, and for
 * each control where it submits to and the fields it carries there, typed and bounded by the same
 * definitions the controls and the validators use.
 */
import type { InputField } from '../domain/input.js';
import type { ListingSpec } from '../domain/listing.js';
import type { Field, Method, Resource } from '../hypermedia/model.js';
import { otherClientError, problemTypes, problemTypeUri } from '../hypermedia/problems.js';
import type { ControlName, Deprecation, Vocabulary } from '../hypermedia/vocabulary.js';
import type { RenderContext } from './context.js';
import { inputFields, listingFields } from './fields.js';

/** Somewhere a control submits to, as the routes describe it. */
export interface ControlTarget {
  control: ControlName;
  /** The target's path as a URI template (`/books/{id}`). */
  path: string;
  method: Method;
  /** The body it reads: `change` bodies take any subset. */
  body?: { fields: readonly InputField[]; mode: 'create' | 'change' };
  /** The listing parameters it takes, for GET controls. */
  listing?: ListingSpec;
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
    Object.entries(vocabulary.controls).map(([name, entry]) => [
      name,
      {
        does: entry.does,
        method: entry.method,
        appears: entry.appears,
        ...deprecation(entry.deprecated),
        targets: Object.fromEntries(
          targets
            .filter((target) => target.control === name)
            .map((target) => [uris.pathTemplate(target.path), targetState(target)]),
        ),
      },
    ]),
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
          'Searches (`query`), whole collections without `page`/`per_page` (streams) and writes spend from ' +
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
function targetState(target: ControlTarget) {
  let fields: Field[] = [];
  if (target.body) {
    fields = inputFields(target.body.fields, { mode: target.body.mode });
  } else if (target.listing) {
    fields = listingFields({ fieldNames: Object.keys(target.listing.fields), author: target.listing.author });
  }
  return {
    ...(target.body && { contentType: 'application/json' }),
    fields: Object.fromEntries(fields.map(({ name, ...rest }) => [name, rest])),
  };
}

function deprecation(deprecated: Deprecation | undefined) {
  return deprecated ? { deprecated: { ...deprecated } } : {};
}
