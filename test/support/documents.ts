/**
 * The JSON format's documents as tests read them (links, controls, fields, pages), the `Link` header, and
 * submitting a control the way a generic client does: one definition for every test.
 */
import { expect } from 'vitest';
import type { ChangeType } from '../../src/domain/change.js';
import type { CopyStatus } from '../../src/domain/copy.js';
import type { HoldStatus } from '../../src/domain/hold.js';
import type { RecordOutcome } from '../../src/domain/imports/report.js';
import type { Weekday } from '../../src/domain/lending-lists.js';
import type { LoanStatus } from '../../src/domain/loan.js';
import type { PeriodUnit } from '../../src/domain/loan-rule.js';
import type { Facet } from '../../src/hypermedia/model.js';
import type { Deprecation } from '../../src/hypermedia/vocabulary.js';
import type { TestClient } from './client.js';

export interface LinkDoc {
  rel: string;
  href: string;
  title?: string;
  templated?: boolean;
}

export interface FieldDoc {
  name: string;
  type: string;
  required: boolean;
  title?: string;
  /** An identifier the text must be (`isbn`, `language`). */
  format?: string;
  /** The value is a list of them, at most `maxItems`. */
  multiple?: true;
  maxItems?: number;
  /** null clears it. */
  nullable?: true;
  value?: string | number | boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  enum?: string[];
  /** Labelled choices written inline, or the collection whose items are the choices. */
  options?: { value: string; prompt: string }[] | RemoteOptionsDoc;
}

/** Where a field's choices are looked up: the items of a collection. */
export interface RemoteOptionsDoc {
  href: string;
  valueField: string;
  promptField: string;
}

/** A field's choices when they are a collection's items (an author for `author_id`), else undefined. */
export function remoteOptions(field: FieldDoc | undefined): RemoteOptionsDoc | undefined {
  return field?.options && !Array.isArray(field.options) ? field.options : undefined;
}

export interface ControlDoc {
  href: string;
  method: string;
  title?: string;
  contentType?: string;
  fields: FieldDoc[];
}

/** A resource of the JSON format: its state `State` beside its links and controls (by name). */
export type Document<State> = State & { links: LinkDoc[]; controls: Record<string, ControlDoc> };

/**
 * A collection's member as a page or an unpaged collection lists it: the document's state and links, its
 * controls only where it has any (they live on its own document).
 */
export type Member<D> = { [K in keyof D as K extends 'controls' ? never : K]: D[K] } & {
  controls?: Record<string, ControlDoc>;
};

/** An unpaged collection (no `page`, `per_page` or `cursor`): every matching member, as a JSON array. */
export type CollectionDocument<D> = Member<D>[];

/** The error shape: `{"error":{"code":<status>,"message":…}}`, `details` (field → message) when fields are at fault. */
export interface ErrorDocument {
  error: { code: number; message: string; details?: Record<string, string> };
}

/** An error as RFC 9457 problem details, on request (`Accept: application/problem+json`); `code` is the status again. */
export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: number;
  /** For invalid or unprocessable input: each field at fault, by the name the controls use. */
  errors?: { field: string; message: string }[];
}

/** `GET /profile`: what each rel and control means, where each control appears and its fields, and the limits. */
export type ProfileDocument = Document<{
  name: string;
  description: string;
  vocabulary: {
    rels: Record<string, { means: string; deprecated?: Deprecation }>;
    controls: Record<
      string,
      {
        does: string;
        method: string;
        appears: string;
        deprecated?: Deprecation;
        targets: Record<
          string,
          { appears: string; contentType?: string; fields: Record<string, Omit<FieldDoc, 'name'>> }
        >;
      }
    >;
  };
  paging: Record<string, string>;
  listing_facets: Record<string, string>;
  book_fields: Record<string, string>;
  problems: {
    explanation: string;
    types: Record<string, { type: string; status: number | '4xx'; title: string; means: string }>;
  };
  limits: { rate: Record<string, { quota: number; window_seconds: number }> | 'none'; explanation: string };
}>;

/** The root: the service's name and description, the links a caller may follow and the controls it may submit. */
export type RootDocument = Document<{ name: string; description: string }>;

/** schema.org in JSON-LD (`application/ld+json`): a `Book` or a `Person`, its properties as schema.org names them. */
export interface JsonLdDocument {
  '@context': string;
  '@type': string;
  [property: string]: unknown;
}

/** `GET /health`. */
export interface HealthDocument {
  status: 'ok';
}

/** A book as `GET /books/{id}` answers it; `hold_*` only to a caller with an open hold on it. */
export type BookDocument = Document<{
  id: number;
  title: string;
  publication_year: number;
  author_id: number;
  isbn: string | null;
  language: string | null;
  subjects: string[];
  publisher: string | null;
  available: boolean;
  due_at: string | null;
  copies_total: number;
  copies_available: number;
  hold_status?: HoldStatus;
  hold_position?: number | null;
  hold_ready_until?: string | null;
}>;

/** An author. */
export type AuthorDocument = Document<{ id: number; name: string }>;

/** A user: a member or a librarian, with their patron category and home branch. */
export type UserDocument = Document<{
  id: number;
  name: string;
  role: 'member' | 'librarian';
  patron_category_id: number;
  home_branch_id: number;
  /** The card and contact: to the user themselves and librarians only. */
  card_number?: string | null;
  email?: string | null;
  language?: string | null;
  pin_set?: boolean;
}>;

/** A token as its owner sees it; `token`, the secret, only in the answer that creates it. */
export type TokenDocument = Document<{ id: number; user_id: number; name: string; created_at: string; token?: string }>;

/** The answer that creates a token: the only one carrying its secret. */
export type NewTokenDocument = TokenDocument & { token: string };

/** A copy of a book. */
export type CopyDocument = Document<{
  id: number;
  book_id: number;
  barcode: string | null;
  label: string;
  status: CopyStatus;
  due_at: string | null;
  added_at: string;
  withdrawn_at: string | null;
  branch_id: number;
  location_branch_id: number;
  transit_to_branch_id: number | null;
  item_type_id: number;
}>;

/** An entry of a lending list (a branch, a patron category, an item type); `open_days` for branches only. */
export type ListEntryDocument = Document<{
  id: number;
  code: string;
  name: string;
  is_default: boolean;
  open_days?: Weekday[];
}>;

/** A date a branch is closed; one just added says how many loans due that day moved to the next open day. */
export type ClosureDocument = Document<{
  id: number;
  branch_id: number;
  date: string;
  reason: string | null;
  created_at: string;
  moved_loans?: number;
}>;

/** A limit of a loan rule: a number, `"none"` for no limit, null when unset. */
export type RuleLimit = number | 'none' | null;

/**
 * A loan rule: its scope (null: any), its values (null: unset, the next rule supplies it), the library's
 * currency its money is in (minor units), and whether it still follows the settings.
 */
export type LoanRuleDocument = Document<{
  id: number;
  patron_category_id: number | null;
  item_type_id: number | null;
  branch_id: number | null;
  loan_period: number | null;
  loan_period_unit: PeriodUnit | null;
  renewals_allowed: number | null;
  renewal_period: number | null;
  renewal_period_unit: PeriodUnit | null;
  max_loans: RuleLimit;
  holds_allowed: boolean | null;
  fine_per_day: number | null;
  grace_days: number | null;
  fine_cap: RuleLimit;
  lost_after_days: RuleLimit;
  lost_charge: number | null;
  lendable: boolean | null;
  floating: boolean | null;
  currency: string;
  from_settings: boolean;
}>;

/** A loan: who has which copy of which book, until when. */
export type LoanDocument = Document<{
  id: number;
  book_id: number;
  copy_id: number;
  borrower_id: number;
  borrowed_at: string;
  due_at: string;
  returned_at: string | null;
  lost_at: string | null;
  renewals: number;
  status: LoanStatus;
}>;

/** A hold: a member's place in a book's queue, and the copy kept for them once it is ready. */
export type HoldDocument = Document<{
  id: number;
  book_id: number;
  borrower_id: number;
  placed_at: string;
  status: HoldStatus;
  pickup_branch_id: number;
  position: number | null;
  copy_id: number | null;
  ready_until: string | null;
  ended_at: string | null;
  loan_id: number | null;
}>;

/** The control of this name on a document, failing the test when the document does not offer it. */
export function controlOf(doc: { controls: Record<string, ControlDoc> }, name: string): ControlDoc {
  const control = doc.controls[name];
  expect(control, `the ${name} control`).toBeDefined();
  return control as ControlDoc;
}

/** The link of this rel on a document, failing the test when the document has none. */
export function linkOf(doc: { links: LinkDoc[] }, rel: string): LinkDoc {
  const link = doc.links.find((l) => l.rel === rel);
  expect(link, `the ${rel} link`).toBeDefined();
  return link as LinkDoc;
}

/** A value the test needs to go on (a list's member, a header), failing the test when it is missing. */
export function present<T>(value: T | undefined, what: string): T {
  expect(value, what).toBeDefined();
  return value as T;
}

/** A resource of any kind: its own members, to be narrowed where read, beside its links and controls. */
export type Doc = Document<Record<string, unknown>>;

/** The rels of the root's links for an anonymous caller, in order. */
export const ANONYMOUS_ROOT_RELS = [
  'self',
  'books',
  'authors',
  'search',
  'suggestions',
  'changes',
  'oai-pmh',
  'sru',
  'profile',
  'service-desc',
  'mcp',
];

/** A page of a listing of `D`s: its members, where it stands, the facets asked for, its links and controls. */
export interface PageDoc<D = Doc> {
  data: Member<D>[];
  meta: { page: number; per_page: number; total_pages: number; total_items: number; total_items_estimated?: true };
  facets?: Facet[];
  links: LinkDoc[];
  controls: Record<string, ControlDoc>;
}

/** An event of the change feed: what changed, when, and a link to it (rel: its kind). */
export type ChangeDocument = Member<Document<{ id: number; type: ChangeType; at: string }>>;

/** A page of the change feed: events oldest first, its size and horizon, and where to resume. */
export interface ChangesPageDocument {
  data: ChangeDocument[];
  meta: { per_page: number; begins_at: string; retention_days: number };
  links: LinkDoc[];
  controls: Record<string, ControlDoc>;
}

/** `GET /suggestions?query=…`: authors and books for a text typed so far, each linked to its document. */
export interface SuggestionsDocument {
  data: Member<Document<{ type: 'author' | 'book'; label: string }>>[];
  query: string;
  links: LinkDoc[];
  controls: Record<string, ControlDoc>;
}

/** An import's report: the counts, and each record listed (linked to its book unless refused). */
export interface ImportReportDocument {
  data: Member<Document<Omit<RecordOutcome, 'title'>>>[];
  records: number;
  imported: number;
  matched: number;
  refused: number;
  authors_created: number;
  truncated: boolean;
  links: LinkDoc[];
  controls: Record<string, ControlDoc>;
}

/**
 * The links of a response's (or any message's) `Link` header (RFC 8288), none when it has none. The catalogue writes exactly
 * `<href>; rel="name"`, joined by ", ", and that is checked too; `required` checks there is one.
 */
export function linkHeader(message: { headers: Headers }, { required = false } = {}): LinkDoc[] {
  const header = message.headers.get('link');
  if (required) expect(header, 'a Link header').not.toBeNull();
  if (header === null) return [];
  const links = [...header.matchAll(/<([^>]*)>; rel="([^"]*)"/g)].map((m) => ({ rel: m[2] ?? '', href: m[1] ?? '' }));
  expect(links.map((l) => `<${l.href}>; rel="${l.rel}"`).join(', '), 'the Link header').toBe(header);
  return links;
}

/** A file of each media type a control may take as its body, with nothing in it. */
const EMPTY_FILES: Record<string, string> = {
  'application/marcxml+xml': '<collection xmlns="http://www.loc.gov/MARC21/slim"/>',
};

/**
 * Submits a control as a generic client does: its method and href; each field's advertised `value`, then
 * the given values, which must be fields the control declares. A required field given no value is left
 * out (the refusal is the test's to check). GET sends the values as query parameters, DELETE no body,
 * anything else a body of the control's content type (JSON).
 */
export async function submit(
  client: TestClient,
  control: ControlDoc,
  values: Record<string, unknown> = {},
): Promise<Response> {
  const declared = control.fields.map((f) => f.name);
  for (const name of Object.keys(values)) {
    expect(declared, `${control.method} ${control.href} declares a field ${name}`).toContain(name);
  }
  const body: Record<string, unknown> = {};
  for (const field of control.fields) {
    const value = field.name in values ? values[field.name] : field.value;
    if (value !== undefined) body[field.name] = value;
  }
  if (control.method === 'GET') {
    const url = new URL(control.href, 'http://catalogue.invalid');
    for (const [name, value] of Object.entries(body)) url.searchParams.set(name, String(value));
    return client.request(url.origin === 'http://catalogue.invalid' ? `${url.pathname}${url.search}` : url.href);
  }
  if (control.method === 'DELETE') return client.request(control.href, { method: 'DELETE' });
  // A control whose body is a file (an import): a generic client sends a file of its type, here one that
  // holds nothing.
  const file = control.contentType && EMPTY_FILES[control.contentType];
  if (file !== undefined) {
    return client.request(control.href, {
      method: control.method,
      headers: { 'Content-Type': control.contentType as string },
      body: file,
    });
  }
  return client.request(control.href, {
    method: control.method,
    headers: { 'Content-Type': control.contentType ?? 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A HAL link: a link of the JSON format without its rel, which keys it. */
export interface HalLink {
  href: string;
  title?: string;
  templated?: boolean;
}

/** A HAL-FORMS property: a control's field, typed as an HTML input. */
export interface HalProperty {
  name: string;
  prompt?: string;
  type: string;
  required: boolean;
  value?: string | number | boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  format?: string;
  multiple?: true;
  maxItems?: number;
  nullable?: true;
  options?: {
    inline?: (string | { prompt: string; value: string })[];
    link?: HalLink;
    promptField?: string;
    valueField?: string;
    minItems: number;
    maxItems: number;
  };
}

/** A HAL-FORMS template: a control. */
export interface HalTemplate {
  title?: string;
  method: string;
  target: string;
  contentType?: string;
  properties: HalProperty[];
}

/**
 * A HAL (or HAL-FORMS) document: the state `State` beside `_links` keyed by rel (an array where a rel has
 * several), members under `_embedded.item`, and with HAL-FORMS `_templates` keyed by control name.
 */
export type HalDocument<State = Record<string, unknown>> = State & {
  _links: Record<string, HalLink | HalLink[]>;
  _embedded?: { item: HalDocument<State>[] };
  _templates?: Record<string, HalTemplate>;
};

/** The href of a HAL document's one link of this rel; undefined when it has none, or several. */
export function halHref(doc: Pick<HalDocument, '_links'>, rel: string): string | undefined {
  const link = doc._links[rel];
  return Array.isArray(link) ? undefined : link?.href;
}

/** A JSON Schema as the OpenAPI description writes one: the keywords read, any other `unknown`. */
export interface SchemaDoc {
  type?: string | string[];
  properties?: Record<string, SchemaDoc>;
  required?: string[];
  items?: SchemaDoc;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  $ref?: string;
  [keyword: string]: unknown;
}

/** A request or response body of one media type. */
export interface OpenApiMedia {
  schema: SchemaDoc;
}

/** An operation of the OpenAPI description. */
export interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: SchemaDoc; [key: string]: unknown }[];
  requestBody?: { required?: boolean; content: Record<string, OpenApiMedia> };
  responses: Record<string, { description?: string; content?: Record<string, OpenApiMedia>; $ref?: string }>;
  [key: string]: unknown;
}

/** `GET /openapi.json`: the OpenAPI 3.1 description, paths keyed by method. */
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers?: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, SchemaDoc>;
    responses: Record<string, { description: string; content: Record<string, OpenApiMedia> }>;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}
