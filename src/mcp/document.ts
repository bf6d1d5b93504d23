/**
 * @module A document as an agent is shown it: the app's JSON answer read back into data, links and
 * controls, made compact for a model's context, and written both as text and as structured content.
 */
import { type Facet, type Field, isInline } from '../hypermedia/model.js';
import type { Method } from '../hypermedia/vocabulary.js';
import type { Answer } from './app-client.js';
import { ToolError } from './errors.js';

/** Most items of a whole collection (a field's options, say) shown; a page shows all of its own. */
export const MAX_ITEMS = 100;

/** A link as an agent is shown it. */
export interface AgentLink {
  rel: string;
  href: string;
  title?: string;
  templated?: boolean;
}

/** A control as the app gives it: what `submit` sends, and (without `href`) what an agent is shown. */
export interface AgentControl {
  name: string;
  method: Method;
  /** Where it submits to; kept from the agent, who submits by name. */
  href: string;
  title?: string;
  contentType?: string;
  fields: Field[];
}

/** A member of a collection: its self link and its fields. */
export interface AgentItem {
  href?: string;
  [field: string]: unknown;
}

/** One answer of the app, read. */
export interface AgentDocument {
  status: number;
  /** Where it lives: its self link, or the URL asked for. */
  url: string;
  location?: string;
  /** The resource's own fields; `null` for a collection sent whole, or no body (204). */
  data: Record<string, unknown> | null;
  /** A page's numbers (page, per_page, totals). */
  meta?: Record<string, unknown>;
  items?: AgentItem[];
  /** Set when a whole collection had more items than shown. */
  truncated?: boolean;
  /** A page's facets (asked for with `facets`): counted values, each with the href that narrows to it. */
  facets?: Facet[];
  links: AgentLink[];
  controls: AgentControl[];
}

/** The document an answer carries. An error answer is a `ToolError` in the app's own words. */
export function documentOf(answer: Answer): AgentDocument {
  if (answer.status >= 400) throw refusal(answer);
  const { status, url, location, body } = answer;
  const base = { status, url, ...(location !== undefined && { location }) };
  if (body === undefined) {
    // A 204 says where to go next in its Link header (a deleted book's collection).
    return { ...base, data: null, links: answer.headerLinks, controls: [] };
  }
  if (Array.isArray(body)) {
    const truncated = answer.truncated || body.length > MAX_ITEMS;
    return {
      ...base,
      data: null,
      items: body.slice(0, MAX_ITEMS).map(itemOf),
      ...(truncated && { truncated: true }),
      links: [],
      controls: [],
    };
  }
  if (!isObject(body)) throw new ToolError(`the answer from ${url} is not a document`);
  const { links, controls, data: members, meta, facets, ...state } = body;
  const page = Array.isArray(members);
  const shownLinks = Array.isArray(links) ? links.filter(isLink) : [];
  // Where the document lives, for the next call: its self link, else the new resource's Location (201).
  const self = shownLinks.find((l) => l.rel === 'self')?.href ?? location ?? url;
  return {
    ...base,
    url: self,
    data: page ? state : { ...state, ...(members !== undefined && { data: members }) },
    ...(page && isObject(meta) && { meta }),
    ...(page && { items: members.map(itemOf) }),
    ...(page && Array.isArray(facets) && { facets: facets as Facet[] }),
    links: shownLinks,
    controls: isObject(controls) ? controlsOf(controls) : [],
  };
}

/** The `ToolError` for an answer of 400 or more: its status and the app's message, word for word. */
export function refusal(answer: Answer): ToolError {
  const error = isObject(answer.body) && isObject(answer.body.error) ? answer.body.error : {};
  const message = typeof error.message === 'string' ? error.message : 'refused';
  const details = isObject(error.details) ? (error.details as Record<string, string>) : undefined;
  return new ToolError(`HTTP ${answer.status} from ${answer.url}: ${message}`, answer.status, details);
}

/** The structured content of a tool's result: the document, its controls without their targets. */
export function structuredOf(document: AgentDocument): Record<string, unknown> {
  return { ...document, controls: document.controls.map(({ href: _, contentType: __, ...shown }) => shown) };
}

/** The text of a tool's result: the same document, a line per link, control and item. */
export function textOf(document: AgentDocument): string {
  const lines = [`${document.status} ${document.url}`];
  if (document.location) lines.push(`Location: ${document.location}`);
  if (document.data && Object.keys(document.data).length > 0) lines.push(`data: ${JSON.stringify(document.data)}`);
  if (document.meta) lines.push(`meta: ${JSON.stringify(document.meta)}`);
  if (document.items) {
    const more = document.truncated ? ` (the first ${document.items.length}; there are more)` : '';
    lines.push(document.items.length > 0 ? `items${more}:` : 'items: none');
    for (const { href, ...fields } of document.items) lines.push(`- ${href ?? '(no link)'} ${JSON.stringify(fields)}`);
  }
  if (document.facets && document.facets.length > 0) {
    lines.push('facets (follow an href to narrow the listing to a value; a chosen value\u2019s href removes it):');
    for (const facet of document.facets) {
      lines.push(`- ${facet.title}${facet.estimated ? ' (estimated counts)' : ''}:`);
      for (const value of facet.values) {
        lines.push(`  - ${value.label} (${value.count})${value.chosen ? ' chosen' : ''}: ${value.href}`);
      }
    }
  }
  if (document.links.length > 0) {
    lines.push('links:');
    for (const link of document.links) {
      const title = link.title ? ` "${link.title}"` : '';
      lines.push(`- ${link.rel}${link.templated ? ' (templated: follow with values)' : ''}: ${link.href}${title}`);
    }
  }
  lines.push(document.controls.length > 0 ? 'controls (submit by name):' : 'controls: none');
  for (const control of document.controls) {
    const title = control.title ? ` "${control.title}"` : '';
    const fields = control.fields.map(fieldText).join('; ');
    lines.push(`- ${control.name} (${control.method})${title}${fields ? `: ${fields}` : ': no fields'}`);
  }
  return lines.join('\n');
}

/** One field, compactly: `author_id integer required, ≥ 1, choose from /authors?… (value id, shown name)`. */
function fieldText(field: Field): string {
  const facts: string[] = [field.multiple ? `list of ${field.type}` : field.type];
  if (field.required) facts.push('required');
  if (field.format) facts.push(`format ${field.format}`);
  if (field.maxItems !== undefined) facts.push(`at most ${field.maxItems} values`);
  if (field.nullable) facts.push('null clears it');
  if (field.min !== undefined && field.max !== undefined) facts.push(`${field.min}..${field.max}`);
  else if (field.min !== undefined) facts.push(`>= ${field.min}`);
  else if (field.max !== undefined) facts.push(`<= ${field.max}`);
  if (field.maxLength !== undefined) facts.push(`at most ${field.maxLength} characters`);
  if (field.enum) facts.push(`one of ${field.enum.join(', ')}`);
  if (field.value !== undefined) facts.push(`value ${JSON.stringify(field.value)}`);
  if (field.options && isInline(field.options)) {
    facts.push(`one of ${field.options.map((c) => `${JSON.stringify(c.value)} (${c.prompt})`).join(', ')}`);
  } else if (field.options) {
    const { href, valueField, promptField } = field.options;
    facts.push(`choose from the items of ${href} (send their ${valueField}; their ${promptField} names them)`);
  }
  return `${field.name} ${facts.join(', ')}${field.title ? ` ("${field.title}")` : ''}`;
}

function itemOf(member: unknown): AgentItem {
  if (!isObject(member)) return { value: member };
  const { links, controls: _, ...fields } = member;
  // An item is named by its self link or, having none (an event of the change feed), by the link it has.
  const named = Array.isArray(links)
    ? (links.find((l) => isLink(l) && l.rel === 'self') ?? links.find(isLink))
    : undefined;
  return named ? { href: named.href, ...fields } : fields;
}

function controlsOf(controls: Record<string, unknown>): AgentControl[] {
  return Object.entries(controls).flatMap(([name, control]) => {
    if (!isObject(control) || typeof control.href !== 'string' || typeof control.method !== 'string') return [];
    return [
      {
        name,
        method: control.method as Method,
        href: control.href,
        ...(typeof control.title === 'string' && { title: control.title }),
        ...(typeof control.contentType === 'string' && { contentType: control.contentType }),
        fields: Array.isArray(control.fields) ? (control.fields as Field[]) : [],
      },
    ];
  });
}

function isLink(value: unknown): value is AgentLink {
  return isObject(value) && typeof value.rel === 'string' && typeof value.href === 'string';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
