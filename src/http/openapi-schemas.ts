/**
 * @module The shared schemas of the OpenAPI description: the JSON format's shapes (`formats/json.ts`:
 * links, controls, fields, resources, pages) with the vocabulary's names, and the seed's error shape.
 */
import * as z from 'zod';
import { FACET_NAMES, TOP_AUTHORS, TOP_LANGUAGES, TOP_SUBJECTS } from '../domain/facets.js';
import { EXACT_COUNT_LIMIT } from '../domain/limits.js';
import { fieldSchema } from '../hypermedia/model.js';
import type { Vocabulary } from '../hypermedia/vocabulary.js';

type Schema = Record<string, unknown>;

/** The JSON format's shapes (`formats/json.ts`) and the error shape. */
export function schemas(vocabulary: Vocabulary): Record<string, Schema> {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const links = { type: 'array', items: ref('Link') };
  const controls = {
    type: 'object',
    propertyNames: { enum: Object.keys(vocabulary.controls) },
    additionalProperties: ref('Control'),
  };
  return {
    Link: {
      type: 'object',
      required: ['rel', 'href'],
      properties: {
        rel: { type: 'string', enum: Object.keys(vocabulary.rels) },
        href: { type: 'string' },
        title: { type: 'string' },
        templated: { type: 'boolean', description: 'The href is an RFC 6570 URI template.' },
      },
    },
    Field: jsonSchemaOf(fieldSchema),
    Control: {
      type: 'object',
      required: ['href', 'method', 'fields'],
      properties: {
        href: { type: 'string' },
        method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
        title: { type: 'string' },
        contentType: { type: 'string' },
        fields: { type: 'array', items: ref('Field') },
      },
    },
    Resource: {
      type: 'object',
      description: 'A resource in the JSON format: its fields at the top level, its links and its controls.',
      required: ['links', 'controls'],
      properties: {
        links,
        controls,
        embedded: {
          type: 'object',
          description:
            'Groups of related resources shown within this one, each under its rel (My account: loans, holds, charges), with the controls offered on each.',
          propertyNames: { enum: Object.keys(vocabulary.rels) },
          additionalProperties: { type: 'array', items: ref('Item') },
        },
      },
    },
    Item: {
      type: 'object',
      description:
        'A member of a collection: its fields and links (its controls are on its own document, or with it where it is shown within another).',
      required: ['links'],
      properties: { links, controls },
    },
    Page: {
      allOf: [
        ref('Resource'),
        {
          type: 'object',
          required: ['data', 'meta'],
          properties: {
            data: { type: 'array', items: ref('Item') },
            meta: {
              type: 'object',
              required: ['page', 'per_page', 'total_pages', 'total_items'],
              properties: {
                ...Object.fromEntries(
                  ['page', 'per_page', 'total_pages', 'total_items'].map((name) => [name, { type: 'integer' }]),
                ),
                total_items_estimated: {
                  type: 'boolean',
                  enum: [true],
                  description:
                    "Present only when total_items (and so total_pages) is the database planner's estimate: more " +
                    `items match a filter or search than are counted exactly (${EXACT_COUNT_LIMIT} by default).`,
                },
              },
            },
            facets: {
              type: 'array',
              description: 'Present only when the request asked for `facets`: those facets, in the order asked.',
              items: ref('Facet'),
            },
          },
        },
      ],
    },
    Facet: {
      type: 'object',
      description: 'A property the listing can be narrowed by, its values counted over the whole listing.',
      required: ['name', 'title', 'values'],
      properties: {
        name: { type: 'string', enum: [...FACET_NAMES] },
        title: { type: 'string' },
        values: {
          type: 'array',
          description:
            `Authors, languages and subjects: the ${TOP_AUTHORS}, ${TOP_LANGUAGES} and ${TOP_SUBJECTS} with the most ` +
            'items, by count; decades in time; availability ' +
            'on the shelf first. A chosen value is always listed.',
          items: {
            type: 'object',
            required: ['value', 'label', 'count', 'chosen', 'href'],
            properties: {
              value: {
                type: 'string',
                description: 'What `filter=` takes: author_id, decade, available, language (its code) or subject.',
              },
              label: { type: 'string' },
              count: { type: 'integer', minimum: 0 },
              chosen: { type: 'boolean', description: 'The listing is narrowed to this value already.' },
              href: {
                type: 'string',
                description:
                  'Unchosen: the listing narrowed to this value, from page 1. Chosen: the listing without it.',
              },
            },
          },
        },
        estimated: {
          type: 'boolean',
          enum: [true],
          description:
            `Present only when more items match than are counted exactly (${EXACT_COUNT_LIMIT} by default): the ` +
            'counts are over a sample of the matches, scaled to the total.',
        },
      },
    },
    Error: {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'message'],
          properties: {
            code: { type: 'integer', description: 'The HTTP status.' },
            message: { type: 'string' },
            details: {
              type: 'object',
              description: 'Per field or parameter, by the name the controls use: what is wrong with it.',
              additionalProperties: { type: 'string' },
            },
          },
        },
      },
    },
    Problem: {
      type: 'object',
      description: 'The same error as an RFC 9457 problem document, answered to `Accept: application/problem+json`.',
      required: ['type', 'title', 'status', 'detail', 'code'],
      properties: {
        type: { type: 'string', format: 'uri', description: 'The problem type: a fragment of the profile.' },
        title: { type: 'string', description: 'The problem type in words, the same for every occurrence.' },
        status: { type: 'integer', description: 'The HTTP status.' },
        detail: { type: 'string', description: 'What went wrong this time (the default shape\u2019s `message`).' },
        code: { type: 'integer', description: 'The HTTP status, as the default shape\u2019s `code`.' },
        errors: {
          type: 'array',
          description: 'Per field or parameter, by the name the controls use (the default shape\u2019s `details`).',
          items: {
            type: 'object',
            required: ['field', 'message'],
            properties: { field: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    },
  };
}

/**
 * A schema declared with zod, as a component of the description (JSON Schema 2020-12, which OpenAPI 3.1
 * uses). Read-only arrays stay plain arrays: to a client a choice list is no read-only property.
 */
function jsonSchemaOf(schema: z.ZodType): Schema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    override: ({ jsonSchema }) => {
      delete jsonSchema.readOnly;
    },
  });
  return json;
}
