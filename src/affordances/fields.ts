/** @module Control fields built from the domain's input definitions. */
import type { InputField } from '../domain/input.js';
import { DEFAULT_PER_PAGE, MAX_PAGE, MAX_PER_PAGE } from '../domain/limits.js';
import type { SortChoice } from '../domain/listing.js';
import type { Field, FieldOptions, RemoteOptions } from '../hypermedia/model.js';
import type { ListingParams } from '../hypermedia/uris.js';
import type { RenderContext } from './context.js';

/**
 * The fields of a write control. `values` prefills the current state. A `change` (PUT or PATCH alike:
 * both change only the fields sent, the seed's rule) takes any of the fields, so none is required;
 * a `create` requires what the definitions require. The validator, OpenAPI and the profile read the
 * same mode, so the four cannot disagree about what must be sent.
 */
export function inputFields(
  definitions: readonly InputField[],
  options: {
    values?: object;
    mode?: 'create' | 'change';
    choices?: Record<string, FieldOptions>;
    /** Optional fields this state requires all the same (the request would be refused without them). */
    required?: readonly string[];
  } = {},
): Field[] {
  const values = options.values as Record<string, unknown> | undefined;
  const fields: Field[] = [];
  for (const definition of definitions) {
    const required = options.required?.includes(definition.name) || (options.mode !== 'change' && definition.required);
    fields.push(
      fieldOf(definition, required, currentValue(values?.[definition.name]), options.choices?.[definition.name]),
    );
  }
  return fields;
}

/** A current value a field can carry: a scalar, or a list of texts; null (none) is left out. */
function currentValue(value: unknown): Field['value'] {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return [...value];
  return undefined;
}

/**
 * One field, its members in the order of `InputField` (the order every definition is written in, and so
 * the order a document shows them), then `value` and `options`.
 */
function fieldOf(
  definition: InputField,
  required: boolean,
  value: Field['value'],
  options: FieldOptions | undefined,
): Field {
  const field: Field = { name: definition.name, type: definition.type, required };
  if (definition.min !== undefined) field.min = definition.min;
  if (definition.max !== undefined) field.max = definition.max;
  if (definition.maxLength !== undefined) field.maxLength = definition.maxLength;
  if (definition.enum !== undefined) field.enum = definition.enum;
  if (definition.format !== undefined) field.format = definition.format;
  if (definition.multiple !== undefined) field.multiple = definition.multiple;
  if (definition.maxItems !== undefined) field.maxItems = definition.maxItems;
  if (definition.nullable !== undefined) field.nullable = definition.nullable;
  if (definition.unlimited !== undefined) field.unlimited = definition.unlimited;
  if (definition.title !== undefined) field.title = definition.title;
  if (value !== undefined) field.value = value;
  if (options !== undefined) field.options = options;
  return field;
}

/**
 * The fields of a listing's search control: its query parameters, typed; `sort` offers the listing's
 * labelled orders as its choices (any other valid sort is still accepted).
 */
export function listingFields(options: {
  fieldNames: string[];
  author: boolean;
  sortChoices?: readonly SortChoice[];
  /** The facets the listing offers to `facets`. */
  facets?: readonly string[] | undefined;
}): Field[] {
  // In plain words: what a book's words match is its title and its author's name (an author's, the name).
  const words = options.author ? 'Search titles and authors' : 'Search names';
  const fields: Field[] = [{ name: 'query', type: 'string', required: false, title: words }];
  if (options.author) fields.push({ name: 'author', type: 'string', required: false, title: 'Author\u2019s name' });
  fields.push(
    {
      name: 'filter',
      type: 'string',
      required: false,
      title: `Exact match, field:value (${options.fieldNames.join(', ')})`,
    },
    {
      name: 'sort',
      type: 'string',
      required: false,
      title: 'Sort by',
      ...(options.sortChoices && { options: options.sortChoices.map((choice) => ({ ...choice })) }),
    },
    { name: 'page', type: 'integer', required: false, min: 1, max: MAX_PAGE, title: 'Page' },
    {
      name: 'per_page',
      type: 'integer',
      required: false,
      min: 1,
      max: MAX_PER_PAGE,
      value: DEFAULT_PER_PAGE,
      title: 'Per page',
    },
    { name: 'fields', type: 'string', required: false, title: 'Fields to return, comma-separated' },
  );
  if (options.facets && options.facets.length > 0) {
    fields.push({
      name: 'facets',
      type: 'string',
      required: false,
      title: `Facets to count, comma-separated (${options.facets.join(', ')})`,
    });
  }
  return fields;
}

/** The fields a list of choices reads: frozen, so each listing's URI of them is expanded once. */
const idAndName: ListingParams = Object.freeze({ fields: 'id,name' });

/** Where the valid values of `author_id` come from: every author's id and name. */
export function authorOptions({ uris }: RenderContext): RemoteOptions {
  return { href: uris.authors(idAndName), valueField: 'id', promptField: 'name' };
}

/** Where the valid values of `borrower_id` come from: every user's id and name. */
export function userOptions({ uris }: RenderContext): RemoteOptions {
  return { href: uris.users(idAndName), valueField: 'id', promptField: 'name' };
}

/** Where the valid values of a `branch_id` come from: every branch's id and name. */
export function branchOptions({ uris }: RenderContext): RemoteOptions {
  return { href: uris.branches(idAndName), valueField: 'id', promptField: 'name' };
}

/** Where the valid values of an `item_type_id` come from: every item type's id and name. */
export function itemTypeOptions({ uris }: RenderContext): RemoteOptions {
  return { href: uris.itemTypes(idAndName), valueField: 'id', promptField: 'name' };
}

/** Where the valid values of a `patron_category_id` come from: every patron category's id and name. */
export function patronCategoryOptions({ uris }: RenderContext): RemoteOptions {
  return { href: uris.patronCategories(idAndName), valueField: 'id', promptField: 'name' };
}

/** The book's copies on the shelf, by id and label. */
const onTheShelf: ListingParams = Object.freeze({ filter: ['status:available'], fields: 'id,label' });

/** Where the valid values of a borrow's `copy_id` come from: the book's copies on the shelf. */
export function copyOptions({ uris }: RenderContext, bookId: number): RemoteOptions {
  return {
    href: uris.bookCopies(bookId, onTheShelf),
    valueField: 'id',
    // A copy added without a barcode is still named: `label` is the barcode, or "Copy <id>".
    promptField: 'label',
  };
}
