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
export function memberText(resource: Resource): string {
  const { state } = resource;
  // In the member, links and controls would replace state fields so named: the general path keeps that.
  if ('links' in state || 'controls' in state) return JSON.stringify(member(resource));
  const stateText = JSON.stringify(state);
  let text = stateText === '{}' ? '{"links":[' : `${stateText.slice(0, -1)},"links":[`;
  const { links } = resource;
  for (let i = 0; i < links.length; i++) text += (i > 0 ? ',' : '') + linkText(links[i] as Link);
  text += ']';
  if (resource.controls.length > 0) text += `,"controls":${JSON.stringify(controlsOf(resource.controls))}`;
  return `${text}}`;
}

/** A link's text as `JSON.stringify(link(l))` writes it, its opening (the rel's) written once per rel. */
function linkText(l: Link): string {
  let text = relOpening(l.rel) + JSON.stringify(l.href);
  if (l.title) text += `,"title":${JSON.stringify(l.title)}`;
  if (l.templated) text += ',"templated":true';
  return `${text}}`;
}

const relOpenings = new Map<string, string>();

function relOpening(rel: string): string {
  let text = relOpenings.get(rel);
  if (text === undefined) {
    text = `{"rel":${JSON.stringify(rel)},"href":`;
    // Rels come from the vocabulary, a few dozen; bounded all the same.
    if (relOpenings.size < 256) relOpenings.set(rel, text);
  }
  return text;
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
