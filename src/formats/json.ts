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

/** Members as they appear inside an array, comma-separated. */
function membersOf(group: Resource[]): string {
  return group.map(memberText).join(',');
}

/**
 * A member's text exactly as `JSON.stringify(member(resource))` writes it, without building the member
 * (a stream writes millions): the state's text, then the links (and any controls) before its closing brace.
 */
function memberText(resource: Resource): string {
  const { state } = resource;
  // In the member, links and controls would replace state fields so named: the general path keeps that.
  if ('links' in state || 'controls' in state) return JSON.stringify(member(resource));
  const stateText = JSON.stringify(state);
  let text = stateText === '{}' ? '{"links":[' : `${stateText.slice(0, -1)},"links":[`;
  for (const [i, l] of resource.links.entries()) text += (i > 0 ? ',' : '') + linkText(l);
  text += ']';
  if (resource.controls.length > 0) text += `,"controls":${JSON.stringify(controlsOf(resource.controls))}`;
  return `${text}}`;
}

function linkText(l: Link): string {
  if (l.title || l.templated) return JSON.stringify(link(l));
  return `{"rel":${JSON.stringify(l.rel)},"href":${JSON.stringify(l.href)}}`;
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
