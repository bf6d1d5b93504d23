/** @module Reading request bodies: JSON or form fields, within the size limit (enforced by the app's body limit). */
import type { Context } from 'hono';
import { CatalogueError, InvalidInput, RequestAborted, UnsupportedMediaType } from '../domain/errors.js';
import { FormInput } from '../domain/input.js';
import { mediaTypeOf } from '../domain/media-type.js';

/**
 * Parses the body: JSON, or the fields of an HTML form (`application/x-www-form-urlencoded`), which the
 * validator types by the control's fields. 415 for anything else, 400 for JSON that does not parse.
 */
export async function readJson(c: Context): Promise<unknown> {
  const type = mediaTypeOf(c.req.header('content-type'));
  if (type === FORM) {
    const values: Record<string, string> = Object.create(null);
    for (const [name, value] of await formFields(c)) values[name] = value;
    return new FormInput(values);
  }
  if (type !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(type)) {
    throw new UnsupportedMediaType('application/json');
  }
  const text = await bodyText(c);
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidInput('request body is not valid JSON');
  }
}

/** Like `readJson`, but an empty body stands for `{}` (a control with no fields may be sent without one). */
export async function readOptionalJson(c: Context): Promise<unknown> {
  if ((await bodyText(c)) === '') return {};
  return readJson(c);
}

/**
 * The fields of a form (`application/x-www-form-urlencoded`) as sent, a repeated field repeated: for a
 * protocol whose arguments come as a form (OAI-PMH's POST). 415 for any other body.
 */
export async function readFormFields(c: Context): Promise<URLSearchParams> {
  if (mediaTypeOf(c.req.header('content-type')) !== FORM) throw new UnsupportedMediaType(FORM);
  return formFields(c);
}

const FORM = 'application/x-www-form-urlencoded';

async function formFields(c: Context): Promise<URLSearchParams> {
  const text = await bodyText(c);
  // URLSearchParams reads escaped bytes that are not UTF-8 (`%ED%A0%80`) as U+FFFD; decodeURIComponent
  // refuses them (and a malformed escape such as `%zz`, which no form sends).
  for (const part of text.split(/[&=]/)) {
    try {
      decodeURIComponent(part);
    } catch {
      throw new InvalidInput('request body is not a valid form: a %-escape in it is not UTF-8 text');
    }
  }
  return new URLSearchParams(text);
}

/** Decodes strictly: bytes that are not UTF-8 are refused, not read as U+FFFD that nobody sent. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The body as text. Reading fails only through the client: over the size limit (a typed error already),
 * or because it closed the connection before sending it all, which is no fault of the service.
 */
async function bodyText(c: Context): Promise<string> {
  let bytes: ArrayBuffer;
  try {
    bytes = await c.req.arrayBuffer();
  } catch (error) {
    if (error instanceof CatalogueError) throw error;
    throw new RequestAborted();
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new InvalidInput('request body is not valid UTF-8');
  }
}
