/** @module Reading request bodies: JSON only, within the size limit (enforced by the app's body limit). */
import type { Context } from 'hono';
import { InvalidInput, UnsupportedMediaType } from '../domain/errors.js';

/** Parses the body as JSON: 415 when it is not declared as JSON, 400 when it does not parse. */
export async function readJson(c: Context): Promise<unknown> {
  const type = c.req.header('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(type)) {
    throw new UnsupportedMediaType('application/json');
  }
  const text = await c.req.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidInput('request body is not valid JSON');
  }
}

/** Like `readJson`, but an empty body stands for `{}` (a control with no fields may be sent without one). */
export async function readOptionalJson(c: Context): Promise<unknown> {
  if ((await c.req.text()) === '') return {};
  return readJson(c);
}
