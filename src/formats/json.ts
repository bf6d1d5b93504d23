/**
 * @module The seed's JSON: state at the top level, `links` as an array, `controls` keyed by name, pages as
 * `{data, meta, links, controls}`, a whole collection as an array. `JSON.stringify` writes the document.
 */
import type { Control, Embedded, Link, Resource, ResourceStream } from '../hypermedia/model.js';
import { type Format, groupsOf } from './format.js';

export const jsonFormat: Format = {
  contentType: 'application/json; charset=utf-8',
  mediaTypes: ['application/json'],
  resource: (resource) => JSON.stringify(document(resource)),
  async *stream(stream: ResourceStream) {
    let first = true;
    for await (const batch of stream.items) {
      for (const group of groupsOf(batch)) {
        yield (first ? '[' : ',') + membersText(group);
        first = false;
      }
    }
    yield first ? '[]' : ']';
  },
  takesStateJson: true,
};

/** A member's JSON text, as a collection lists it (an event of the change feed carries the same). */
export function memberText(resource: Resource): string {
  const { stateJson } = resource;
  if (stateJson === undefined) return JSON.stringify(member(resource));
  // The state as written, then what `member` adds after it: the bytes stringifying the whole member writes.
  let after = `"links":${linksText(resource.links)}`;
  if (resource.controls.length > 0) after += `,"controls":${JSON.stringify(controlsOf(resource.controls))}`;
  return stateJson === '{}' ? `{${after}}` : `${stateJson.slice(0, -1)},${after}}`;
}

/** Members joined by commas: one stringify for a group none of whose states is written yet, brackets dropped. */
function membersText(group: Resource[]): string {
  if (group.some((resource) => resource.stateJson !== undefined)) return group.map(memberText).join(',');
  return JSON.stringify(group.map(member)).slice(1, -1);
}

/**
 * A document: the members of a page first, then the state, the groups shown within it (`embedded`, members
 * by rel), the facets, the links and the controls.
 */
function document(resource: Resource): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (resource.items) body.data = resource.items.map(member);
  Object.assign(body, resource.state);
  if (resource.embedded) body.embedded = embeddedOf(resource.embedded);
  if (resource.facets) body.facets = resource.facets;
  body.links = resource.links.map(link);
  body.controls = controlsOf(resource.controls);
  return body;
}

/** A collection member: state and links; controls only where it has any (they live on its own document). */
function member(resource: Resource): Record<string, unknown> {
  const body: Record<string, unknown> = Object.assign({}, resource.state);
  body.links = resource.links.map(link);
  if (resource.controls.length > 0) body.controls = controlsOf(resource.controls);
  return body;
}

/** Each group's members by its rel, as a collection lists them (their controls with them). */
function embeddedOf(groups: Embedded[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const group of groups) out[group.rel] = group.items.map(member);
  return out;
}

/**
 * The text `JSON.stringify(links.map(link))` writes, without the objects in between: a streamed member's
 * links are a third of the server's work on it (docs/performance/what-stays.md).
 */
function linksText(links: Link[]): string {
  let text = '[';
  for (let at = 0; at < links.length; at++) {
    const l = links[at] as Link;
    text += `${at === 0 ? '' : ','}${linkOpening(l.rel)}${JSON.stringify(l.href)}`;
    if (l.title) text += `,"title":${JSON.stringify(l.title)}`;
    if (l.templated) text += ',"templated":true';
    text += '}';
  }
  return `${text}]`;
}

/** `{"rel":…,"href":` for each relation written so far (a fixed vocabulary). */
const linkOpenings = new Map<string, string>();

function linkOpening(rel: string): string {
  let opening = linkOpenings.get(rel);
  if (opening === undefined) {
    opening = `{"rel":${JSON.stringify(rel)},"href":`;
    linkOpenings.set(rel, opening);
  }
  return opening;
}

function link(l: Link): Record<string, unknown> {
  const out: Record<string, unknown> = { rel: l.rel, href: l.href };
  if (l.title) out.title = l.title;
  if (l.templated) out.templated = true;
  return out;
}

function controlsOf(controls: Control[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of controls) {
    const control: Record<string, unknown> = { href: c.href, method: c.method };
    if (c.title) control.title = c.title;
    if (c.contentType) control.contentType = c.contentType;
    control.fields = c.fields;
    out[c.name] = control;
  }
  return out;
}
