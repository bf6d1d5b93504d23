/**
 * @module The seed's JSON: resource fields at the top level, `links` as an array of `{rel, href, ...}`,
 * `controls` as an object keyed by control name, pages as `{data, meta, links, controls}`, and a bare
 * collection as a plain array of items.
 */
import type { Control, Field, Link, Resource, ResourceStream } from '../hypermedia/model.js';
import { type Format, groupsOf } from './format.js';

export const jsonFormat: Format = {
  contentType: 'application/json; charset=utf-8',
  mediaTypes: ['application/json'],
  resource: (resource) => JSON.stringify(document(resource)),
  async *stream(stream: ResourceStream) {
    let first = true;
    for await (const batch of stream.items) {
      for (const group of groupsOf(batch)) {
        yield (first ? '[' : ',') + membersOf(group);
        first = false;
      }
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

/**
 * Members as they appear inside an array, comma-separated: one `JSON.stringify` for the group, whose
 * brackets are dropped, writes the very bytes that stringifying them one by one and joining them would.
 */
function membersOf(group: Resource[]): string {
  return JSON.stringify(group.map(member)).slice(1, -1);
}

/** A collection member: state and links; controls only where it has any (they live on its own document). */
function member(resource: Resource): Record<string, unknown> {
  const body: Record<string, unknown> = { ...resource.state, links: resource.links.map(link) };
  if (resource.controls.length > 0) body.controls = controlsOf(resource.controls);
  return body;
}

function link(l: Link) {
  // Most links have neither: they skip building and spreading the optional parts (a stream has millions).
  if (!l.title && !l.templated) return { rel: l.rel, href: l.href };
  return { rel: l.rel, href: l.href, ...(l.title && { title: l.title }), ...(l.templated && { templated: true }) };
}

function controlsOf(controls: Control[]) {
  return Object.fromEntries(
    controls.map((c) => [
      c.name,
      {
        href: c.href,
        method: c.method,
        ...(c.title && { title: c.title }),
        ...(c.contentType && { contentType: c.contentType }),
        fields: c.fields.map(field),
      },
    ]),
  );
}

function field(f: Field) {
  return { ...f };
}
