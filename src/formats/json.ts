/**
 * @module The seed's JSON: resource fields at the top level, `links` as an array of `{rel, href, ...}`,
 * `controls` as an object keyed by control name, pages as `{data, meta, links, controls}`, and a bare
 * collection as a plain array of items.
 */
import {
  type Control,
  type Field,
  fieldTemplate,
  type Link,
  type Resource,
  type ResourceStream,
} from '../hypermedia/model.js';
import { type Format, groupsOf } from './format.js';
import { quoted, stateMembers } from './json-text.js';
import { remembered } from './remembered.js';

export const jsonFormat: Format = {
  contentType: 'application/json; charset=utf-8',
  mediaTypes: ['application/json'],
  resource: documentText,
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

/**
 * A document's text exactly as `JSON.stringify(document(resource))` writes it, written part by part: the
 * members, the state, the links, then the controls, whose fields are written once where two controls
 * share them (a change offered as `update` and `edit`) and once ever where they never change.
 */
function documentText(resource: Resource): string {
  // Where a state field would take the place of a member of the document, the general path keeps that.
  if (!writesDirectly(resource) || (resource.items && 'data' in resource.state)) {
    return JSON.stringify(document(resource));
  }
  const opening = resource.items ? `{"data":[${membersOf(resource.items)}],` : '{';
  return objectText(opening, resource, true);
}

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
  if (!writesDirectly(resource)) return JSON.stringify(member(resource));
  return objectText('{', resource, false);
}

/**
 * Whether the text can be written part by part: no state field named like the links or controls it
 * would replace, and no control name given twice (the last would take the first one's place), named
 * `__proto__` (which an object's assignment does not keep) or like an index (which an object puts first).
 */
function writesDirectly({ state, controls }: Resource): boolean {
  if ('links' in state || 'controls' in state) return false;
  for (let i = 0; i < controls.length; i++) {
    const name = (controls[i] as Control).name as string;
    if (name === '__proto__' || /^\d/.test(name)) return false;
    for (let j = 0; j < i; j++) if ((controls[j] as Control).name === name) return false;
  }
  return true;
}

/** After `opening`: the state's fields, the links, and the controls (`{}` when none, if `emptyControls`). */
function objectText(opening: string, resource: Resource, emptyControls: boolean): string {
  const members = stateMembers(resource.state);
  let text = members === '' ? `${opening}"links":[` : `${opening}${members},"links":[`;
  const { links, controls } = resource;
  for (let i = 0; i < links.length; i++) text += (i > 0 ? ',' : '') + linkText(links[i] as Link);
  text += ']';
  if (emptyControls || controls.length > 0) text += `,"controls":${controlsText(controls)}`;
  return `${text}}`;
}

/** Controls as `JSON.stringify(controlsOf(controls))` writes them (see `writesDirectly`). */
function controlsText(controls: Control[]): string {
  let text = '{';
  let lastFields: Field[] | undefined;
  let lastText = '';
  for (let i = 0; i < controls.length; i++) {
    const c = controls[i] as Control;
    text += (i > 0 ? ',' : '') + remembered(controlOpenings, c.name, controlOpening) + quoted(c.href);
    text += remembered(methodTexts, c.method, methodText);
    if (c.title) text += `,"title":${quoted(c.title)}`;
    if (c.contentType) text += `,"contentType":${quoted(c.contentType)}`;
    if (c.fields !== lastFields) {
      lastFields = c.fields;
      lastText = fieldsText(c.fields);
    }
    text += `,"fields":${lastText}}`;
  }
  return `${text}}`;
}

const controlOpenings = new Map<string, string>();
const controlOpening = (name: string) => `${JSON.stringify(name)}:{"href":`;
const methodTexts = new Map<string, string>();
const methodText = (method: string) => `,"method":${JSON.stringify(method)}`;

/** The text of fields that can never change (frozen through and through), written once. */
const fixedFieldsText = new WeakMap<readonly Field[], string>();

function fieldsText(fields: Field[]): string {
  let text = fixedFieldsText.get(fields);
  if (text !== undefined) return text;
  text = '[';
  for (let i = 0; i < fields.length; i++) text += (i > 0 ? ',' : '') + fieldText(fields[i] as Field);
  text += ']';
  if (deeplyFrozen(fields)) fixedFieldsText.set(fields, text);
  return text;
}

function deeplyFrozen(fields: readonly Field[]): boolean {
  return Object.isFrozen(fields) && fields.every(fieldFrozen);
}

function fieldFrozen(f: Field): boolean {
  return (
    Object.isFrozen(f) &&
    (f.options === undefined || Object.isFrozen(f.options)) &&
    (f.enum === undefined || Object.isFrozen(f.enum))
  );
}

/**
 * A field's text as `JSON.stringify` writes it. A field made from a template (see `fieldTemplate`) whose
 * members are still the template's is the template's text with the value put in before `options`; a
 * field frozen through and through is written once.
 */
function fieldText(f: Field): string {
  const template = f[fieldTemplate];
  if (template !== undefined && madeFrom(f, template)) {
    const { text, head, tail } = writtenOnce(template);
    if (f.value === undefined) return text;
    if (head !== undefined) return `${head},"value":${valueText(f.value)}${tail}`;
  }
  return fieldFrozen(f) ? writtenOnce(f).text : JSON.stringify(f);
}

function madeFrom(f: Field, t: Field): boolean {
  return (
    f.name === t.name &&
    f.type === t.type &&
    f.required === t.required &&
    f.min === t.min &&
    f.max === t.max &&
    f.maxLength === t.maxLength &&
    f.enum === t.enum &&
    f.title === t.title &&
    f.options === t.options &&
    t.value === undefined &&
    fieldFrozen(t)
  );
}

/**
 * A frozen field's text, and the same in two parts around where a value goes: before `options`, which a
 * template ends with, or else before the closing brace (no parts if the text does not end so).
 */
interface FieldText {
  text: string;
  head?: string;
  tail?: string;
}

const fieldTexts = new WeakMap<Field, FieldText>();

function writtenOnce(f: Field): FieldText {
  let written = fieldTexts.get(f);
  if (written === undefined) {
    const text = JSON.stringify(f);
    const tail = f.options === undefined ? '}' : `,"options":${JSON.stringify(f.options)}}`;
    written = text.endsWith(tail) ? { text, head: text.slice(0, -tail.length), tail } : { text };
    fieldTexts.set(f, written);
  }
  return written;
}

function valueText(value: string | number | boolean): string {
  return typeof value === 'string' ? quoted(value) : JSON.stringify(value);
}

/** A link's text as `JSON.stringify(link(l))` writes it, its opening (the rel's) written once per rel. */
function linkText(l: Link): string {
  let text = remembered(relOpenings, l.rel, relOpening) + quoted(l.href);
  if (l.title) text += `,"title":${quoted(l.title)}`;
  if (l.templated) text += ',"templated":true';
  return `${text}}`;
}

const relOpenings = new Map<string, string>();
const relOpening = (rel: string) => `{"rel":${JSON.stringify(rel)},"href":`;

/** A collection member: state and links; controls only where it has any (they live on its own document). */
function member(resource: Resource): Record<string, unknown> {
  // Assigned, not spread: a spread copy given members it lacks is slow (see the HAL format).
  const body: Record<string, unknown> = Object.assign({}, resource.state);
  body.links = resource.links.map(link);
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
