/** @module Control fields built from the domain's input definitions. */
import type { InputField } from '../domain/input.js';
import { DEFAULT_PER_PAGE, MAX_PAGE, MAX_PER_PAGE } from '../domain/limits.js';
import { type Field, type FieldOptions, fieldTemplate } from '../hypermedia/model.js';
import type { ListingParams, Uris } from '../hypermedia/uris.js';
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
    const value = values?.[definition.name];
    fields.push(
      fieldOf(
        definition,
        required,
        typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined,
        options.choices?.[definition.name],
      ),
    );
  }
  return fields;
}

/**
 * One field, its members in the order of `InputField` (the order every definition is written in, and so
 * the order a document shows them), then `value` and `options`. Written out member by member rather than
 * spread from the definition: a spread object that then took a `value` cost about 1.5 µs per field, and
 * a librarian's book document has five. A field with fixed choices (or none) is made from its template.
 */
function fieldOf(
  definition: InputField,
  required: boolean,
  value: string | number | boolean | undefined,
  options: FieldOptions | undefined,
): Field {
  const template =
    options === undefined || Object.isFrozen(options) ? templateOf(definition, required, options) : undefined;
  if (template === undefined) return membersOf(definition, required, value, options);
  return value === undefined ? template : membersOf(template, required, value, options, template);
}

function membersOf(
  source: InputField,
  required: boolean,
  value: string | number | boolean | undefined,
  options: FieldOptions | undefined,
  template?: Field,
): Field {
  const field: Field = { name: source.name, type: source.type, required, [fieldTemplate]: template };
  if (source.min !== undefined) field.min = source.min;
  if (source.max !== undefined) field.max = source.max;
  if (source.maxLength !== undefined) field.maxLength = source.maxLength;
  if (source.enum !== undefined) field.enum = source.enum;
  if (source.title !== undefined) field.title = source.title;
  if (value !== undefined) field.value = value;
  if (options !== undefined) field.options = options;
  return field;
}

/**
 * The frozen field without a value that `definition` makes, required or not, with these choices (frozen,
 * so the same on every read): made once, and shared by every field made from it.
 */
const templates = new WeakMap<InputField, Map<FieldOptions | undefined, Field>[]>();

function templateOf(definition: InputField, required: boolean, options: FieldOptions | undefined): Field {
  let byRequired = templates.get(definition);
  if (!byRequired) {
    byRequired = [new Map(), new Map()];
    templates.set(definition, byRequired);
  }
  const byOptions = byRequired[required ? 1 : 0] as Map<FieldOptions | undefined, Field>;
  let template = byOptions.get(options);
  if (!template) {
    const members = membersOf(definition, required, undefined, options);
    // Frozen through and through, so that its text never changes: its own copy of the choices it lists.
    if (members.enum !== undefined) members.enum = Object.freeze([...members.enum]);
    template = Object.freeze(members);
    byOptions.set(options, template);
  }
  return template;
}

/** The fields of a listing's search control: its query parameters, typed. */
export function listingFields(options: { fieldNames: string[]; author: boolean }): Field[] {
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
    { name: 'sort', type: 'string', required: false, title: 'Sort by field,-field' },
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
  return fields;
}

/** Where the valid values of `author_id` come from: every author's id and name. */
export const authorOptions = optionsOf((uris) => uris.authors({ fields: 'id,name' }));

/** Where the valid values of `borrower_id` come from: every user's id and name. */
export const userOptions = optionsOf((uris) => uris.users({ fields: 'id,name' }));

/** The book's copies on the shelf, by id and label (frozen: its query is expanded once). */
const onTheShelf = Object.freeze({ filter: Object.freeze(['status:available']), fields: 'id,label' });

/** Where the valid values of a borrow's `copy_id` come from: the book's copies on the shelf. */
export function copyOptions({ uris }: RenderContext, bookId: number): FieldOptions {
  return {
    href: uris.bookCopies(bookId, onTheShelf as ListingParams),
    valueField: 'id',
    // A copy added without a barcode is still named: `label` is the barcode, or "Copy <id>".
    promptField: 'label',
  };
}

/**
 * Options read from the collection at `href` (ids and names), built once per base URI: a book's document
 * offers them on every read, and expanding the template each time was a measurable part of one.
 */
function optionsOf(href: (uris: Uris) => string): (ctx: RenderContext) => FieldOptions {
  const built = new WeakMap<Uris, FieldOptions>();
  return ({ uris }) => {
    let options = built.get(uris);
    if (!options) {
      options = Object.freeze({ href: href(uris), valueField: 'id', promptField: 'name' });
      built.set(uris, options);
    }
    return options;
  };
}
