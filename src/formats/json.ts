/**
 * @module The seed's JSON: resource fields at the top level, `links` as an array of `{rel, href, ...}`,
 * `controls` as an object keyed by control name, pages as `{data, meta, links, controls}`, and a bare
 * collection as a plain array of items.
 */
import type { Control, Field, Link, Resource, ResourceStream } from '../hypermedia/model.js';
import type { Format } from './format.js';

export const jsonFormat: Format = {
  contentType: 'application/json; charset=utf-8',
  mediaTypes: ['application/json'],
  resource: (resource) => JSON.stringify(document(resource)),
  async *stream(stream: ResourceStream) {
    let first = true;
    for await (const item of stream.items) {
      yield (first ? '[' : ',') + JSON.stringify(member(item));
      first = false;
    }
    yield first ? '[]' : ']';
  },
};

function document(resource: Resource): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (resource.items) body.data = resource.items.map(member);
  Object.assign(body, resource.state);
  body.links = resource.links.map(link);
  body.controls = controlsOf(resource.controls);
  return body;
}

/** A collection member: state and links; controls only where it has any (they live on its own document). */
function member(resource: Resource): Record<string, unknown> {
  const body: Record<string, unknown> = { ...resource.state, links: resource.links.map(link) };
  if (resource.controls.length > 0) body.controls = controlsOf(resource.controls);
  return body;
}

// Built by assignment rather than conditional spreads (`...(l.title && {title})`), which allocate a
// throw-away object each and showed as a quarter of a librarian's book document in a CPU profile.
function link(l: Link) {
  const out: Record<string, unknown> = { rel: l.rel, href: l.href };
  if (l.title) out.title = l.title;
  if (l.templated) out.templated = true;
  return out;
}

function controlsOf(controls: Control[]) {
  const out: Record<string, unknown> = {};
  for (const c of controls) {
    const control: Record<string, unknown> = { href: c.href, method: c.method };
    if (c.title) control.title = c.title;
    if (c.contentType) control.contentType = c.contentType;
    // Serialised at once, so the fields need no copy.
    control.fields = c.fields satisfies Field[];
    out[c.name] = control;
  }
  return out;
}
