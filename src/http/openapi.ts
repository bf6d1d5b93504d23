/**
 * @module The OpenAPI 3.1 description, generated from the route table, the declared input fields, the
 * listing specs and the registered formats: nothing in it is written per endpoint.
 */

import { isAffordance } from '../affordances/affordance.js';
import type { Operation } from '../affordances/operation.js';
import { identifierFormats } from '../domain/identifiers.js';
import { type InputField, NO_LIMIT } from '../domain/input.js';
import {
  INT4_MAX,
  MAX_BODY_BYTES,
  MAX_PAGE,
  MAX_PER_PAGE,
  MAX_QUERY_PARAM_LENGTH,
  MAX_SEARCH_WORDS,
} from '../domain/limits.js';
import { type ListingSpec, type SortChoice, sortableFields } from '../domain/listing.js';
import { SESSION_COOKIE } from '../domain/session.js';
import { type Format, writesEveryKind } from '../formats/format.js';
import type { Method, Vocabulary } from '../hypermedia/vocabulary.js';
import { schemas } from './openapi-schemas.js';
import type { RouteEntry } from './route.js';

export interface OpenApiOptions {
  routes: readonly RouteEntry[];
  /** The media types representations come in. */
  formats: readonly Format[];
  /** Control descriptions, and which are deprecated. */
  vocabulary: Vocabulary;
  /** Base of every path: the public URL, or `''` for path-absolute. */
  base: string;
  /** The profile's URL, given as the further documentation. */
  profile: string;
}

type Schema = Record<string, unknown>;

/** Largest identifier in a path: PostgreSQL's `integer`. */
const MAX_ID = INT4_MAX;

/** The statuses a route can answer with in the error shape, and when. */
const errorDescriptions: Record<number, string> = {
  400: 'The request is malformed or a value is unacceptable; `details` names each offending field or parameter.',
  401: 'No valid credentials: send `Authorization: Bearer <token>`.',
  403: 'Signed in, but the role does not allow this.',
  404: 'Nothing the caller may see lives at this URI.',
  405: 'The resource does not take this method; `Allow` lists those it does.',
  406: 'None of the media types in `Accept` can be produced.',
  409: 'The request conflicts with the current state; the message says how.',
  412: '`If-Match` names a version that is no longer current.',
  413: `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
  415: 'The request body is not JSON.',
  410: 'What was asked for is gone for good: a change feed cursor older than the feed\u2019s retention.',
  422: 'The body refers to something that does not exist.',
  429: 'Too many tries: a rate limit is spent, or a library card is locked after wrong PINs; `Retry-After` says when to try again.',
  503: 'The database does not answer, or (the change feed\u2019s event stream) the process serves as many streams as it may; `Retry-After` says when to try again.',
};

export function openApiDocument(options: OpenApiOptions): Schema {
  const paths: Record<string, Schema> = {};
  for (const entry of options.routes) {
    const item: Schema = {};
    for (const [method, operation] of Object.entries(entry.operations) as [Method, Operation][]) {
      item[method.toLowerCase()] = operationOf(entry.path, method, operation, options);
    }
    paths[entry.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'catalogue',
      // The API has no versions: it grows by adding, and retires names through deprecation (see below).
      version: 'unversioned',
      description:
        'A hypermedia API: start at `/`, follow links by relation and submit controls by name; the profile ' +
        'says what each means. Deprecated relations and controls are announced in the responses that carry ' +
        'them with `Deprecation` and `Sunset` headers and a `deprecation` link, and removed only after the sunset.',
    },
    servers: [{ url: options.base || '/' }],
    externalDocs: { description: 'The profile: every link relation and control', url: options.profile },
    security: [{}, { bearer: [] }, { session: [] }],
    paths,
    components: {
      schemas: schemas(options.vocabulary),
      responses: Object.fromEntries(
        [...Object.entries(errorDescriptions), ['default', 'An error, in the error shape.'] as const].map(
          ([status, description]) => [errorName(status), errorResponse(status, description)],
        ),
      ),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A token of a user (librarian or member).' },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: SESSION_COOKIE,
          description: 'A browser session, from the `login` control (`POST /session`).',
        },
      },
    },
  };
}

/** The JSON Schema of a request body checked against these fields (`validateInput`). */
export function bodySchema(body: NonNullable<Operation['body']>): Schema {
  const required = body.mode === 'create' ? body.fields.filter((f) => f.required).map((f) => f.name) : [];
  return {
    type: 'object',
    properties: Object.fromEntries(body.fields.map((field) => [field.name, fieldSchema(field)])),
    ...(required.length > 0 && { required }),
    // A change must carry at least one field.
    ...(body.mode === 'change' && { minProperties: 1 }),
    additionalProperties: false,
  };
}

/**
 * A field's JSON Schema: its one value's, as a list where `multiple`, or "none" where `unlimited`, with null where `nullable`. The
 * identifier formats are written as they are accepted (an ISBN with hyphens, a language in any case); the
 * answers carry the stored form (docs/records.md).
 */
function fieldSchema(field: InputField): Schema {
  const { title: _, ...one } = oneValueSchema(field);
  const schema = field.multiple
    ? {
        type: 'array',
        ...(field.title && { title: field.title }),
        items: one,
        ...(field.maxItems !== undefined && { maxItems: field.maxItems }),
      }
    : oneValueSchema(field);
  if (field.unlimited) {
    // An integer, or the word for no limit (`max_loans: "none"`).
    const { title, ...number } = schema;
    const none = { const: NO_LIMIT, description: 'no limit' };
    return {
      ...(typeof title === 'string' && { title }),
      anyOf: [number, none, ...(field.nullable ? [{ type: 'null' }] : [])],
    };
  }
  if (!field.nullable) return schema;
  return { ...schema, type: [schema.type, 'null'] };
}

function oneValueSchema(field: InputField): Schema {
  const title = field.title ? { title: field.title } : {};
  if (field.format) return { type: 'string', ...title, ...identifierFormats[field.format].schema };
  switch (field.type) {
    case 'string':
      return {
        type: 'string',
        ...title,
        // Not blank: at least one character that is not white space.
        ...(field.enum ? { enum: [...field.enum] } : { pattern: '\\S' }),
        ...(field.maxLength !== undefined && { maxLength: field.maxLength }),
      };
    case 'integer':
      return {
        type: 'integer',
        ...title,
        ...(field.min !== undefined && { minimum: field.min }),
        ...(field.max !== undefined && { maximum: field.max }),
      };
    case 'boolean':
      return { type: 'boolean', ...title };
    case 'date':
      return { type: 'string', format: 'date', ...title };
  }
}

function operationOf(path: string, method: Method, operation: Operation, options: OpenApiOptions): Schema {
  const affordance = isAffordance(operation) ? operation : undefined;
  const control = affordance && options.vocabulary.controls[affordance.name];
  const pathNames = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const parameters = [
    ...pathNames.map(pathParameter),
    ...(operation.listing ? listingParameters(operation.listing) : []),
    ...(operation.query ?? []).map((field) => ({
      name: field.name,
      in: 'query',
      ...(field.required && { required: true }),
      schema: fieldSchema(field),
    })),
    ...(operation.parameters ?? []).map((p) => ({
      name: p.name,
      in: 'query',
      ...(p.required && { required: true }),
      description: p.description,
      schema: p.schema,
    })),
  ];
  const status = operation.status ?? (method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200);
  return {
    operationId: operationId(method, path),
    summary: operation.summary,
    ...(affordance &&
      control && {
        description: `Submitted through the \`${affordance.name}\` control: ${control.does} It appears ${affordance.appears}.`,
        'x-control': affordance.name,
      }),
    ...(operation.unauthenticated && { security: [] }),
    ...(parameters.length > 0 && { parameters }),
    ...(operation.body && {
      requestBody: {
        required: !operation.body.optional,
        content: { 'application/json': { schema: bodySchema(operation.body) } },
      },
    }),
    ...(operation.consumes && {
      requestBody: {
        required: true,
        content: Object.fromEntries([operation.consumes].flat().map((type) => [type, { schema: {} }])),
      },
    }),
    responses: {
      [status]: success(
        status,
        operation,
        method === 'GET' ? options.formats : options.formats.filter(writesEveryKind),
      ),
      ...Object.fromEntries(
        errorStatuses(method, operation, pathNames.length > 0).map((s) => [
          s,
          { $ref: `#/components/responses/${errorName(s)}` },
        ]),
      ),
      default: { $ref: '#/components/responses/Error' },
    },
    ...(control?.deprecated && { deprecated: true }),
  };
}

/** The errors an operation's shape implies, plus those it declares. */
function errorStatuses(method: Method, operation: Operation, hasPathParameters: boolean): number[] {
  const statuses = new Set<number>([406, ...(operation.errors ?? [])]);
  if (!operation.unauthenticated) statuses.add(401);
  if (method !== 'GET') statuses.add(403);
  if (hasPathParameters) statuses.add(404);
  if (operation.body || operation.listing) statuses.add(400);
  if (operation.body || operation.consumes) {
    statuses.add(413);
    statuses.add(415);
  }
  if (operation.conditional) statuses.add(412);
  return [...statuses].sort((a, b) => a - b);
}

function success(status: number, operation: Operation, formats: readonly Format[]): Schema {
  const link = { description: 'The links of the answer (RFC 8288).', schema: { type: 'string' } };
  if (status === 204) {
    return { description: 'Done; the `collection` link says where to go next.', headers: { Link: link } };
  }
  if (operation.produces) {
    return { description: 'OK', content: { [operation.produces.split(';')[0] as string]: { schema: {} } } };
  }
  const content: Schema = Object.fromEntries(
    formats.map((format) => [format.mediaTypes[0], { schema: representationSchema(format, operation) }]),
  );
  if (operation.alsoProduces) {
    content[operation.alsoProduces.mediaType] = {
      schema: { type: 'string', description: operation.alsoProduces.description },
    };
  }
  return {
    description:
      status === 201
        ? 'Created: the new resource, with its `Location`.'
        : 'The resource, in the format `Accept` asks for, with its links and the controls the caller may submit.',
    headers: {
      Link: link,
      ...(status === 201 && { Location: { description: 'The new resource.', schema: { type: 'string' } } }),
    },
    content,
  };
}

function representationSchema(format: Format, operation: Operation): Schema {
  const mediaType = format.mediaTypes[0];
  if (format.kinds) {
    return {
      type: 'string',
      description:
        `Where the answer is of a kind it writes (${format.kinds.join(', ')}): it as ${mediaType}. Else the next ` +
        'format `Accept` allows, or 406.',
    };
  }
  if (mediaType === 'application/json') {
    return operation.listing
      ? {
          oneOf: [
            { $ref: '#/components/schemas/Page' },
            { type: 'array', items: { $ref: '#/components/schemas/Item' }, description: 'Without paging parameters.' },
          ],
        }
      : { $ref: '#/components/schemas/Resource' };
  }
  if (mediaType?.startsWith('text/')) return { type: 'string' };
  return { type: 'object', description: `The same resource as ${mediaType}.` };
}

function pathParameter(name: string): Schema {
  return {
    name,
    in: 'path',
    required: true,
    description: 'A positive whole number; anything else names no resource (404).',
    schema: { type: 'integer', minimum: 1, maximum: MAX_ID },
  };
}

function listingParameters(spec: ListingSpec): Schema[] {
  const fields = Object.keys(spec.fields);
  const filterable = [...fields, ...Object.keys(spec.filters ?? {})];
  const selectable = [...fields, ...(spec.extraFields ?? [])];
  const sortable = sortableFields(spec);
  const anyOf = (names: string[]) => `(?:${names.join('|')})`;
  const query = (name: string, description: string, schema: Schema): Schema => ({
    name,
    in: 'query',
    description,
    schema,
  });
  const text = { type: 'string', minLength: 1, maxLength: MAX_QUERY_PARAM_LENGTH };
  return [
    ...(spec.search !== false
      ? [
          query(
            'query',
            `Full-text search: up to ${MAX_SEARCH_WORDS} words, "phrases", or, -word. By relevance unless sorted.`,
            text,
          ),
        ]
      : []),
    ...(spec.author
      ? [
          query(
            'author',
            'Words of the author\u2019s name as typed: each a whole word of it, case-insensitive, the last one perhaps unfinished.',
            text,
          ),
        ]
      : []),
    {
      ...query(
        'filter',
        `Exact match, field:value; repeatable (the same field twice matches either). Filterable: ${filterable.join(', ')}.`,
        { type: 'array', items: { type: 'string', pattern: `^${anyOf(filterable)}:.+$` } },
      ),
      style: 'form',
      explode: true,
    },
    {
      ...query('sort', `Keys, field or -field (descending), comma-separated. Sortable: ${sortable.join(', ')}.`, {
        type: 'string',
        pattern: `^-?${anyOf(sortable)}(?:,-?${anyOf(sortable)})*$`,
      }),
      // The labelled orders the search control offers (its `sort` field's options), as named examples.
      ...(spec.sortChoices && { examples: sortExamples(spec.sortChoices) }),
    },
    query('page', 'With page or per_page the answer is one page; without, the whole collection.', {
      type: 'integer',
      minimum: 1,
      maximum: MAX_PAGE,
    }),
    query('per_page', 'Items per page (20 when only page is given).', {
      type: 'integer',
      minimum: 1,
      maximum: MAX_PER_PAGE,
    }),
    query(
      'cursor',
      'Opaque position from a `next`, `prev` or `last` link: the page it names costs what the first page costs, ' +
        'at any depth (a deep `page=N` reads every item before it). Not combined with `page`; made for one ' +
        'listing (filters, search, sort, per_page): 400 otherwise.',
      { type: 'string', pattern: '^[A-Za-z0-9_-]+$' },
    ),
    query('fields', `Item fields to return, comma-separated. Selectable: ${selectable.join(', ')}.`, {
      type: 'string',
      pattern: `^${anyOf(selectable)}(?:,${anyOf(selectable)})*$`,
    }),
    ...(spec.facets && spec.facets.length > 0
      ? [
          query(
            'facets',
            `Facets to count over the whole listing, comma-separated, each once: ${spec.facets.join(', ')}. ` +
              'The answer is a page envelope (page 1 unless page or cursor says otherwise) with `facets`: each ' +
              'value counted and linked to the listing narrowed to it (a chosen one, to the listing without it).',
            { type: 'string', pattern: `^${anyOf([...spec.facets])}(?:,${anyOf([...spec.facets])})*$` },
          ),
        ]
      : []),
  ];
}

/** Each labelled order as an OpenAPI example; the listing's own order is sending no `sort` at all. */
function sortExamples(choices: readonly SortChoice[]): Schema {
  return Object.fromEntries(
    choices
      .filter((choice) => choice.value !== '')
      .map((choice) => [choice.value, { summary: choice.prompt, value: choice.value }]),
  );
}

function errorResponse(status: string, description: string): Schema {
  const headers =
    status === '401'
      ? { 'WWW-Authenticate': { schema: { type: 'string' }, description: '`Bearer realm="catalogue"`' } }
      : status === '405'
        ? { Allow: { schema: { type: 'string' }, description: 'The methods the resource takes.' } }
        : undefined;
  return {
    description,
    ...(headers && { headers }),
    content: {
      'application/json': { schema: { $ref: '#/components/schemas/Error' } },
      'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
    },
  };
}

function errorName(status: string | number): string {
  return status === 'default' ? 'Error' : `Error${status}`;
}

function operationId(method: Method, path: string): string {
  const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith('{') ? `by_${segment.slice(1, -1)}` : segment))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return method.toLowerCase() + (words.length > 0 ? words.map(capital).join('') : 'Root');
}
