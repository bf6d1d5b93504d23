/**
 * @module The media-type-neutral resource model. Renderers build it; formats translate it. Nothing here
 * knows about JSON, HAL or HTML.
 */
import * as z from 'zod';
import type { FacetName } from '../domain/facets.js';
import { inputFieldSchema } from '../domain/input.js';
import type { ControlName, Method, Rel } from './vocabulary.js';

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
export const remoteOptionsSchema = z
  .object({
    href: z.string().describe('A collection whose items are the choices.'),
    templated: z.boolean().optional().describe('True when `href` is a URI template.'),
    valueField: z.string().describe('The item property sent as the field\u2019s value.'),
    promptField: z.string().describe('The item property shown to a person choosing.'),
  })
  .describe('Where the choices come from: the items of this collection; send their valueField.');

/** One choice of a field whose choices are few and fixed (a listing's orders), labelled for people. */
export const fieldChoiceSchema = z
  .object({
    value: z.string().describe('What the field sends when this choice is made.'),
    prompt: z.string().describe('The choice as a person reads it.'),
  })
  .describe('One labelled choice.');

/**
 * A field's choices: written inline when they are few and fixed (labelled values, one of them sent), or the
 * items of a collection when they are many (an author for `author_id`).
 */
export const fieldOptionsSchema = z.union([
  z.array(fieldChoiceSchema).describe('The choices themselves, in the order to offer them; send one value.'),
  remoteOptionsSchema,
]);

export type FieldOptions = z.infer<typeof fieldOptionsSchema>;
export type RemoteOptions = z.infer<typeof remoteOptionsSchema>;
export type FieldChoice = z.infer<typeof fieldChoiceSchema>;

/** Whether a field's choices are written inline (else they are the items of a collection). */
export function isInline(options: FieldOptions): options is FieldChoice[] {
  return Array.isArray(options);
}

/**
 * One input of a control: an input the domain defines (name, type, bounds, whether required), plus what
 * a control adds for the client filling it in. The one declaration of a field's shape: the formats write
 * it, and the MCP tools and the OpenAPI description use this schema.
 */
export const fieldSchema = inputFieldSchema.extend({
  value: z
    .union([z.string(), z.number(), z.boolean(), z.array(z.string())])
    .optional()
    .describe('Current or suggested value; a client that submits the control unchanged sends it.'),
  options: fieldOptionsSchema.optional(),
});

export type Field = z.infer<typeof fieldSchema>;

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
  /**
   * The state already written as JSON text (what `JSON.stringify(state)` writes), where the database wrote it
   * for a format that takes it (`Format.takesStateJson`); `state` is then empty.
   */
  stateJson?: string;
  links: Link[];
  controls: Control[];
  /** Member resources of a collection page, in order, under the rel `item`. */
  items?: Resource[];
  /** Groups of related resources shown within this one, each under its rel (HAL's `_embedded`). */
  embedded?: Embedded[];
  /** Version of the stored state, for conditional requests (ETag, If-Match); absent if not versioned. */
  version?: number;
  /** What a listing could be narrowed to, counted: only on a page whose request asked for facets. */
  facets?: Facet[];
}

/** Related resources shown within a resource (a patron's loans on their account page), each group under a rel. */
export interface Embedded {
  /** What each member is to the resource, from the vocabulary. */
  rel: Rel;
  /** The group as a person reads it, above its members. */
  title: string;
  /** The members, in order, each with its own links and controls. */
  items: Resource[];
}

/** One value a listing can be narrowed to, and how many of its items have it. */
export interface FacetValue {
  value: string;
  label: string;
  count: number;
  /** Whether the listing is already narrowed to it. */
  chosen: boolean;
  /** Unchosen: the listing narrowed to this value. Chosen: the listing without it. */
  href: string;
}

/** A property a listing's items can be narrowed by, with its values counted over the whole listing. */
export interface Facet {
  name: FacetName;
  title: string;
  values: FacetValue[];
  /** Present when the counts are estimates (see `meta.total_items_estimated`). */
  estimated?: true;
}

/** Kinds of member a collection can have. */
export type ItemKind =
  | 'book'
  | 'author'
  | 'user'
  | 'loan'
  | 'copy'
  | 'hold'
  | 'token'
  | 'change'
  | 'branch'
  | 'closure'
  | 'patron-category'
  | 'item-type'
  | 'loan-rule'
  | 'account-entry';

export type ResourceKind =
  | 'account'
  | 'my-account'
  | 'payments'
  | 'notices'
  | 'notice'
  | 'root'
  | 'profile'
  | 'mcp'
  | 'suggestions'
  | 'suggestion'
  | 'import-report'
  | 'import-record'
  | 'import-job'
  | 'explanation'
  | 'term'
  | 'desk'
  | 'checkins'
  | 'check-in'
  | ItemKind
  | `${ItemKind}-page`;

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
