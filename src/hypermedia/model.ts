/**
 * @module The media-type-neutral resource model. Renderers build it; formats translate it. Nothing here
 * knows about JSON, HAL or HTML.
 */
import type { InputField } from '../domain/input.js';
import type { ControlName, Rel } from './vocabulary.js';

export type { FieldType } from '../domain/input.js';

/** A typed link (RFC 8288 web linking). */
export interface Link {
  /** Relation name, from the shared vocabulary. */
  rel: Rel;
  /** Target URI, or an RFC 6570 template when `templated` is true. */
  href: string;
  /** Human-readable label for the target. */
  title?: string;
  /** True when `href` is a URI template to expand before following. */
  templated?: boolean;
}

/** Where the permitted values of a field can be looked up (e.g. the author ids for `author_id`). */
export interface FieldOptions {
  /** A collection whose items are the choices. */
  href: string;
  /** True when `href` is a URI template. */
  templated?: boolean;
  /** The item property sent as the field's value. */
  valueField: string;
  /** The item property shown to a person choosing. */
  promptField: string;
}

/**
 * One input of a control: an input the domain defines (name, type, bounds, whether required), plus what
 * a control adds for the client filling it in.
 */
export interface Field extends InputField {
  /** Current or suggested value; a client that submits the control unchanged sends it. */
  value?: string | number | boolean;
  /** Where the choices for this field come from. */
  options?: FieldOptions;
  /** The frozen field this one was made from, when it was made from one (see `fieldTemplate`). */
  readonly [fieldTemplate]?: Field | undefined;
}

/**
 * On a field made from a template: that template, a frozen field with the same members in the same order
 * but no `value` (which, when given, comes just before `options`). A format that writes text may write
 * the template's part once and only the value each time. A symbol, so readers of the members never see it.
 */
export const fieldTemplate: unique symbol = Symbol('field template');

/** HTTP methods a control can use. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** An action a client may take (an affordance): submitting the fields to `href` with `method`. */
export interface Control {
  /** Name of the action, from the shared vocabulary. */
  name: ControlName;
  /** Target URI. */
  href: string;
  /** HTTP method of the request. */
  method: Method;
  /** Human-readable label. */
  title?: string;
  /** Media type of the request body; absent for GET and DELETE. */
  contentType?: string;
  /** Inputs; for GET they become query parameters. */
  fields: Field[];
}

/** A representation: state plus the links and controls that apply to it. */
export interface Resource {
  /** What kind of thing this is (a format may present kinds differently). */
  kind: ResourceKind;
  /** Properties of the resource, already restricted to the requested fields. */
  state: Record<string, unknown>;
  links: Link[];
  controls: Control[];
  /** Member resources of a collection page, in order, under the rel `item`. */
  items?: Resource[];
  /** Version of the stored state, for conditional requests (ETag, If-Match); absent if not versioned. */
  version?: number;
}

/** Kinds of member a collection can have. */
export type ItemKind = 'book' | 'author' | 'user' | 'loan' | 'copy' | 'hold' | 'token' | 'change';

export type ResourceKind = 'root' | 'profile' | 'mcp' | ItemKind | `${ItemKind}-page`;

/**
 * A collection sent whole, batch by batch as its items are read from the database. Only the collection's
 * own links and controls are known in advance.
 */
export interface ResourceStream {
  kind: `${ItemKind}-list`;
  links: Link[];
  controls: Control[];
  /** The members in order, in the batches they were read in (a format writes each batch in one go). */
  items: AsyncIterable<Resource[]>;
}
