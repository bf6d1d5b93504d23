/**
 * @module Input fields of writable resources, declared once, and the validation of request bodies against
 * them: what a control advertises is exactly what a submission is checked against.
 */
import * as z from 'zod';
import { InvalidInput } from './errors.js';
import { identifierFormats } from './identifiers.js';

/**
 * Values submitted by an HTML form: every value is text, and an empty input means "not given". They are
 * typed by the same field definitions before validation, so a form and a JSON body meet the same rules.
 */
export class FormInput {
  constructor(readonly values: Readonly<Record<string, string>>) {}
}

/** Kinds of input value, modelled on HTML input types. */
export const fieldTypes = ['string', 'integer', 'boolean', 'date'] as const;
export type FieldType = (typeof fieldTypes)[number];

/**
 * Identifiers a string field takes, each accepted as people write it and stored in one form: `isbn` an
 * ISBN-10 or ISBN-13, hyphens and spaces allowed, kept as ISBN-13; `language` an ISO 639-1 or 639-2 code,
 * kept as ISO 639-2/B (`identifiers.ts`).
 */
export type FieldFormat = keyof typeof identifierFormats;

/**
 * A writable property: its type, bounds, and whether creation requires it. Declared once: its TypeScript
 * type, the controls' fields (`hypermedia/model.ts`), the MCP tools' and the OpenAPI description's schemas
 * are all this.
 */
export const inputFieldSchema = z.object({
  name: z.string().describe('Name of the property in the request (the query parameter for GET controls).'),
  type: z.enum(fieldTypes).describe('Kind of value expected, modelled on HTML input types.'),
  required: z.boolean().describe('Whether a submission must carry the field.'),
  min: z.number().optional().describe('Smallest accepted number.'),
  max: z.number().optional().describe('Largest accepted number.'),
  maxLength: z.int().optional().describe('Longest accepted string, in characters.'),
  enum: z.array(z.string()).readonly().optional().describe('The only values accepted.'),
  format: z
    .enum(Object.keys(identifierFormats) as [FieldFormat, ...FieldFormat[]])
    .optional()
    .describe('An identifier the text must be: `isbn` (ISBN-10 or -13, kept as ISBN-13), `language` (ISO 639).'),
  multiple: z.boolean().optional().describe('The value is a list (a JSON array) of values of the type.'),
  maxItems: z.int().optional().describe('Most values a list may hold.'),
  nullable: z.boolean().optional().describe('null is accepted, and clears the value.'),
  unlimited: z.boolean().optional().describe('The text "none" is accepted too, for no limit (an integer field).'),
  title: z.string().optional().describe('Human-readable label.'),
});

export type InputField = z.infer<typeof inputFieldSchema>;

/**
 * The value a field takes: a number for an integer, one of its choices where it lists them, a list of those
 * for a `multiple` field, and null besides where `nullable`.
 */
type ValueOf<F extends InputField> =
  | (F extends { multiple: true } ? OneValueOf<F>[] : OneValueOf<F>)
  | (F extends { nullable: true } ? null : never)
  | (F extends { unlimited: true } ? typeof NO_LIMIT : never);

/** What an `unlimited` field takes for "no limit". */
export const NO_LIMIT = 'none';

type OneValueOf<F extends InputField> = F['type'] extends 'integer'
  ? number
  : F['type'] extends 'boolean'
    ? boolean
    : F extends { enum: readonly (infer Choice extends string)[] }
      ? Choice
      : string;

/** The input a body of these fields is: those `create` requires, and the others optional. */
export type InputOf<Fields extends readonly InputField[]> = Flat<
  { [F in Fields[number] as F['required'] extends true ? F['name'] : never]: ValueOf<F> } & {
    [F in Fields[number] as F['required'] extends true ? never : F['name']]?: ValueOf<F>;
  }
>;

/** One object type rather than an intersection, as an editor shows it. */
type Flat<T> = { [K in keyof T]: T[K] };

/** A body a request takes: its fields, and whether they are all (`create`) or any of them (`change`). */
export interface BodySpec<Fields extends readonly InputField[] = readonly InputField[]> {
  fields: Fields;
  /** `create`: the required fields must be sent; `change`: any non-empty subset of them. */
  mode: 'create' | 'change';
}

/** What a valid body of `Body` is: its fields typed, all of them optional in a change. */
export type BodyInput<Body extends BodySpec> = Body extends BodySpec
  ? Body['mode'] extends 'create'
    ? InputOf<Body['fields']>
    : Partial<InputOf<Body['fields']>>
  : never;

/**
 * Checks a parsed JSON body against the fields. `create` requires the required fields; `change` (PUT and
 * PATCH) takes any non-empty subset. Unknown properties are rejected so that a typo never goes unnoticed.
 * Throws `InvalidInput` with one message per offending field.
 */
export function validateInput<Body extends BodySpec>(spec: Body, submitted: unknown): BodyInput<Body> {
  const { fields, mode } = spec;
  const body = submitted instanceof FormInput ? typedFormValues(fields, submitted, mode) : submitted;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidInput('request body must be a JSON object');
  }
  const input = normalised(body as Record<string, unknown>);
  // Without a prototype, so that a field named `__proto__` is reported like any other unknown field.
  const details: Record<string, string> = Object.create(null);
  const known = new Set(fields.map((f) => f.name));
  for (const name of Object.keys(input)) {
    if (!known.has(name)) details[name] = `unknown field; accepted fields: ${[...known].join(', ')}`;
  }
  for (const field of fields) {
    if (!(field.name in input)) {
      if (mode === 'create' && field.required) details[field.name] = 'is required';
      continue;
    }
    const problem = checkValue(field, input[field.name]);
    if (problem) details[field.name] = problem;
  }
  const problems = Object.entries(details);
  if (problems.length > 0) {
    const summary = problems.map(([name, message]) => `${name} ${message}`).join('; ');
    throw new InvalidInput(`invalid request body: ${summary}`, details);
  }
  if (mode === 'change' && Object.keys(input).length === 0) {
    throw new InvalidInput(`request body must carry at least one of: ${[...known].join(', ')}`);
  }
  // Every member was checked against its field above, so the input is what the fields declare.
  const accepted: Record<string, unknown> = Object.create(null);
  for (const field of fields) if (field.name in input) accepted[field.name] = stored(field, input[field.name]);
  return accepted as BodyInput<Body>;
}

/**
 * A checked value in the one form it is stored in: an identifier in its canonical form, a list's values
 * trimmed and each kept once (the first spelling of those equal but for case).
 */
function stored(field: InputField, value: unknown): unknown {
  if (value === null) return null;
  if (!field.multiple) return typeof value === 'string' ? canonical(field, value) : value;
  const seen = new Set<string>();
  const kept: unknown[] = [];
  for (const item of value as unknown[]) {
    const one = typeof item === 'string' ? canonical(field, item.trim()) : item;
    const key = typeof one === 'string' ? one.toLowerCase() : String(one);
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(one);
  }
  return kept;
}

function canonical(field: InputField, text: string): string {
  return field.format ? (identifierFormats[field.format].canonical(text) as string) : text;
}

/**
 * Text in Unicode normal form C: "Zoë" typed with a precomposed ë and with e + combining diaeresis are the
 * same name, so they are stored and searched as one spelling.
 */
function normalised(input: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(input)) {
    copy[name] = Array.isArray(value) ? value.map(nfc) : nfc(value);
  }
  return copy;
}

function nfc(value: unknown): unknown {
  return typeof value === 'string' ? value.normalize('NFC') : value;
}

/**
 * Nothing a reader could see: white space, and characters that draw nothing on their own (zero-width
 * spaces and joiners, other format and control characters, lone combining marks, Hangul and braille
 * fillers).
 */
const INVISIBLE_ONLY = /^[\p{White_Space}\p{Cf}\p{Cc}\p{M}\u115F\u1160\u3164\uFFA0\u2800]*$/u;

/**
 * A form's text as the fields' values. A list is typed one value a line. A change that empties a field
 * that may be cleared clears it: the person erased it.
 */
function typedFormValues(
  fields: readonly InputField[],
  form: FormInput,
  mode: BodySpec['mode'],
): Record<string, unknown> {
  const typed: Record<string, unknown> = Object.create(null);
  for (const [name, text] of Object.entries(form.values)) {
    const field = fields.find((f) => f.name === name);
    const lines = field?.multiple ? text.split(/\r?\n/).filter((line) => line.trim() !== '') : undefined;
    // Only an empty input is "not given": one of spaces is a value, refused as blank like any other.
    if (text === '' || lines?.length === 0) {
      if (mode === 'change' && field?.nullable) typed[name] = null;
      continue;
    }
    if (lines) {
      typed[name] = lines;
      continue;
    }
    const type = field?.type;
    typed[name] =
      type === 'integer' && /^-?\d{1,16}$/.test(text.trim())
        ? Number(text.trim())
        : type === 'boolean' && ['true', 'on', 'false'].includes(text)
          ? text !== 'false'
          : text;
  }
  return typed;
}

/** Returns what is wrong with one value, or undefined when it is acceptable. */
export function checkValue(field: InputField, value: unknown): string | undefined {
  if (value === null && field.nullable) return undefined;
  if (value === NO_LIMIT && field.unlimited) return undefined;
  if (!field.multiple) return checkOneValue(field, value);
  if (!Array.isArray(value)) return `must be a list (a JSON array), each value ${describeType(field.type)}`;
  if (field.maxItems !== undefined && value.length > field.maxItems) {
    return `must hold at most ${field.maxItems} values`;
  }
  for (const [i, item] of value.entries()) {
    const problem = checkOneValue(field, item);
    if (problem) return `value ${i + 1} ${problem}`;
  }
  return undefined;
}

function checkOneValue(field: InputField, value: unknown): string | undefined {
  if (value === null || value === undefined) return `must be ${describeType(field.type)}, not null`;
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return 'must be a string';
      // A lone surrogate (JSON's "\ud800") is no character: UTF-8 cannot hold it, and storing it would
      // quietly turn it into U+FFFD.
      if (!value.isWellFormed()) return 'must be well-formed Unicode text, without an unpaired surrogate';
      if (field.enum && !field.enum.includes(value)) return `must be one of: ${field.enum.join(', ')}`;
      if (INVISIBLE_ONLY.test(value)) return 'must not be blank';
      const control = NOT_ONE_LINE.exec(value);
      if (control) return notOneLine(value, control);
      if (field.maxLength !== undefined && [...value].length > field.maxLength) {
        return `must be at most ${field.maxLength} characters`;
      }
      if (field.format && identifierFormats[field.format].canonical(value) === undefined) {
        return identifierFormats[field.format].problem(value);
      }
      return undefined;
    }
    case 'integer': {
      if (typeof value !== 'number' || !Number.isInteger(value)) {
        return field.unlimited ? `must be an integer or "${NO_LIMIT}"` : 'must be an integer';
      }
      return checkRange(field, value);
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'date':
      return typeof value === 'string' && isIsoDate(value) ? undefined : 'must be a date (YYYY-MM-DD)';
  }
}

/**
 * What no text field holds: every field is one line of text. Refused are the C0 controls (tab, line feed and
 * carriage return among them; PostgreSQL's text cannot hold NUL at all), DEL, the C1 controls, and the line
 * and paragraph separators. A line break in a name is how a header is smuggled into an email; a tab or an
 * escape is nothing a reader sees. A list's values are one line each (a form types them one a line).
 */
const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029]/u;

/** The names people know these characters by; any other is "a control character". */
const CONTROL_NAMES: Readonly<Record<string, string>> = {
  '\u0000': 'the NUL character',
  '\t': 'a tab',
  '\n': 'a line feed',
  '\r': 'a carriage return',
  '\u007f': 'the DEL character',
  '\u2028': 'a line separator',
  '\u2029': 'a paragraph separator',
};

function notOneLine(value: string, found: RegExpExecArray): string {
  const character = found[0];
  const code = `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
  const position = [...value.slice(0, found.index)].length + 1;
  const name = CONTROL_NAMES[character] ?? 'a control character';
  return `must be one line without control characters: ${name} (${code}) at character ${position}`;
}

function checkRange(field: InputField, value: number): string | undefined {
  if (field.min !== undefined && value < field.min) return `must be at least ${field.min}`;
  if (field.max !== undefined && value > field.max) return `must be at most ${field.max}`;
  return undefined;
}

function describeType(type: FieldType): string {
  return { string: 'a string', integer: 'an integer', boolean: 'true or false', date: 'a date' }[type];
}

function isIsoDate(value: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}
