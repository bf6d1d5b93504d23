/**
 * @module HAL (`application/hal+json`, draft-kelly-json-hal): state at the top level, links under `_links`
 * keyed by rel, members under `_embedded.item`, groups shown within a resource under `_embedded.<rel>`.
 * Plain HAL leaves controls out; HAL-FORMS adds `_templates`.
 * A page's facets are a `facets` property, and each value a `facet` link too, so link-following clients
 * (Ketting) find them.
 */
import type { Control, Facet, Link, Resource, ResourceStream } from '../hypermedia/model.js';
import { type Format, groupsOf } from './format.js';

/** A HAL Link Object. */
interface HalLink {
  href: string;
  templated?: true;
  title?: string;
}

/** Translates controls into a flavour's affordances, or `undefined` when there are none to show. */
export type TemplatesOf = (controls: Control[]) => Record<string, unknown> | undefined;

export interface HalFormatOptions {
  contentType: string;
  mediaTypes: readonly string[];
  /** Absent for plain HAL, which ignores controls. */
  templates?: TemplatesOf;
}

/** A HAL format; HAL and HAL-FORMS differ only in whether and how controls are shown. */
export function createHalFormat(options: HalFormatOptions): Format {
  const templatesOf: TemplatesOf = options.templates ?? (() => undefined);

  /** `_templates` goes before `_embedded`, as in a stream, where only the members come late. */
  const document = (resource: Resource): Record<string, unknown> => {
    const body: Record<string, unknown> = Object.assign({}, resource.state);
    if (resource.facets) body.facets = resource.facets;
    body._links = linksOf(resource.facets ? [...resource.links, ...facetLinks(resource.facets)] : resource.links);
    const templates = templatesOf(resource.controls);
    if (templates) body._templates = templates;
    if (resource.items || resource.embedded) {
      const embedded: Record<string, unknown> = {};
      if (resource.items) embedded.item = resource.items.map(document);
      for (const group of resource.embedded ?? []) embedded[group.rel] = group.items.map(document);
      body._embedded = embedded;
    }
    return body;
  };

  return {
    contentType: options.contentType,
    mediaTypes: options.mediaTypes,
    resource: (resource) => JSON.stringify(document(resource)),
    async *stream(stream: ResourceStream) {
      const templates = templatesOf(stream.controls);
      const head =
        `{"_links":${JSON.stringify(linksOf(stream.links))}` +
        (templates ? `,"_templates":${JSON.stringify(templates)}` : '') +
        ',"_embedded":{"item":[';
      // The head goes out with the first member, not before it: until a row has been read the response
      // has not started, so a failing query still gets a proper error response (see `sendStream`).
      let first = true;
      for await (const batch of stream.items) {
        for (const group of groupsOf(batch)) {
          // One stringify per group, brackets dropped: the same bytes as its members joined by commas.
          yield (first ? head : ',') + JSON.stringify(group.map(document)).slice(1, -1);
          first = false;
        }
      }
      yield first ? `${head}]}}` : ']}}';
    },
  };
}

/** Each facet value as a `facet` link, titled with its facet, label and count. */
function facetLinks(facets: Facet[]): Link[] {
  return facets.flatMap((facet) =>
    facet.values.map((value) => ({
      rel: 'facet' as const,
      href: value.href,
      title: `${facet.title}: ${value.label} (${value.count}${value.chosen ? ', chosen' : ''})`,
    })),
  );
}

/** Links keyed by rel: one Link Object, or an array of them when the rel repeats. */
function linksOf(links: Link[]): Record<string, HalLink | HalLink[]> {
  const byRel: Record<string, HalLink | HalLink[]> = {};
  for (const l of links) {
    const link: HalLink = { href: l.href };
    if (l.templated) link.templated = true;
    if (l.title) link.title = l.title;
    const existing = byRel[l.rel];
    if (existing === undefined) byRel[l.rel] = link;
    else if (Array.isArray(existing)) existing.push(link);
    else byRel[l.rel] = [existing, link];
  }
  return byRel;
}

export const halFormat = createHalFormat({
  contentType: 'application/hal+json; charset=utf-8',
  mediaTypes: ['application/hal+json'],
});
