/**
 * @module Input fields of writable resources and the validation of request bodies against them. The
 * same field definitions become the typed fields of the controls, so what a control advertises is
 * exactly what a submission is checked against.
 */
import { InvalidInput } from './errors.js';

/**
 * Values submitted by an HTML form: every value is text, and an empty input means "not given". They are
 * typed by the same field definitions before validation, so a form and a JSON body meet the same rules.
 */
export class FormInput {
  constructor(readonly values: Readonly<Record<string, string>>) {}
}

/** Kinds of input value, modelled on HTML input types. */
export type FieldType = 'string' | 'integer' | 'boolean' | 'date';

/** A writable property: its type, bounds, and whether creation requires it. */
export interface InputField {
  /** Name of the property in the request (the query parameter for GET controls). */
  name: string;
  /** Kind of value expected. */
  type: FieldType;
  /** Whether a submission must carry the field. */
  required: boolean;
  /** Smallest accepted number. */
  min?: number;
  /** Largest accepted number. */
  max?: number;
  /** Longest accepted string, in characters. */
  maxLength?: number;
  /** The only values accepted, for a field with a fixed set of choices. */
  enum?: readonly string[];
  /** Human-readable label. */
  title?: string;
}

/** A body a request takes: its fields, and whether they are all (`create`) or any of them (`change`). */
export interface BodySpec {
  fields: readonly InputField[];
  /** `create`: the required fields must be sent; `change`: any non-empty subset of them. */
  mode: 'create' | 'change';
}

/**
 * Checks a parsed JSON body against the fields. `create` requires the required fields; `change` (PUT and
 * PATCH) takes any non-empty subset. Unknown properties are rejected so that a typo never goes unnoticed.
 * Throws `InvalidInput` with one message per offending field.
 */
export function validateInput<T>(spec: BodySpec, submitted: unknown): T {
  const { fields, mode } = spec;
  const body = submitted instanceof FormInput ? typedFormValues(fields, submitted) : submitted;
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
  return input as T;
}

/**
 * Text in Unicode normal form C: "Zoë" typed with a precomposed ë and with e + combining diaeresis are the
 * same name, so they are stored and searched as one spelling.
 */
function normalised(input: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = Object.create(null);
  for (const [name, value] of Object.entries(input))
    copy[name] = typeof value === 'string' ? value.normalize('NFC') : value;
  return copy;
}

/**
 * Nothing a reader could see: white space, and characters that draw nothing on their own (zero-width
 * spaces and joiners, other format and control characters, lone combining marks, Hangul and braille
 * fillers).
 */
const INVISIBLE_ONLY = /^[\p{White_Space}\p{Cf}\p{Cc}\p{M}\u115F\u1160\u3164\uFFA0\u2800]*$/u;

function typedFormValues(fields: readonly InputField[], form: FormInput): Record<string, unknown> {
  const typed: Record<string, unknown> = Object.create(null);
  for (const [name, text] of Object.entries(form.values)) {
    if (text === '') continue;
    const type = fields.find((f) => f.name === name)?.type;
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
  if (value === null || value === undefined) return `must be ${describeType(field.type)}, not null`;
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return 'must be a string';
      // A lone surrogate (JSON's "\ud800") is no character: UTF-8 cannot hold it, and storing it would
      // quietly turn it into U+FFFD.
      if (!value.isWellFormed()) return 'must be well-formed Unicode text, without an unpaired surrogate';
      if (field.enum && !field.enum.includes(value)) return `must be one of: ${field.enum.join(', ')}`;
      if (INVISIBLE_ONLY.test(value)) return 'must not be blank';
      // PostgreSQL text cannot hold U+0000; refused here rather than failing in the database.
      if (value.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
      if (field.maxLength !== undefined && [...value].length > field.maxLength) {
        return `must be at most ${field.maxLength} characters`;
      }
      return undefined;
    }
    case 'integer': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be an integer';
      return checkRange(field, value);
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'date':
      return typeof value === 'string' && isIsoDate(value) ? undefined : 'must be a date (YYYY-MM-DD)';
  }
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
