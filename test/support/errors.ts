/**
 * The seed's error shape, asserted in one place: `{"error":{"code":<status>,"message":<non-empty>}}`, with
 * `details` (field → message) the only other key an error may carry.
 */
import { expect } from 'vitest';
import type { ErrorDocument } from './documents.js';

/** An error response's body. */
export type ErrorBody = ErrorDocument;

export interface ExpectErrorOptions {
  /** Exactly these keys in `error.details`, in any order; `[]`: no `details` at all. */
  details?: readonly string[];
  /** What the message contains (a string) or matches (a pattern). */
  message?: string | RegExp;
  /** Names the request in failure messages, e.g. its path. */
  what?: string;
}

/**
 * Asserts an error response: the status, a JSON body of exactly `{"error":{…}}` whose `code` is the status
 * and whose `message` is a non-empty string, nothing but `code`, `message` and `details` in it, `details`
 * (when present) an object of strings; and whatever `options` add. Reads the body and answers it.
 */
export async function expectError(
  response: Response,
  status: number,
  options: ExpectErrorOptions = {},
): Promise<ErrorBody> {
  const { what } = options;
  expect(response.status, what).toBe(status);
  expect(response.headers.get('content-type'), what).toMatch(/^application\/json/);
  const body = (await response.json()) as ErrorBody;
  expect(Object.keys(body), what).toEqual(['error']);
  expect(body.error.code, what).toBe(status);
  expect(typeof body.error.message, what).toBe('string');
  expect(body.error.message.trim(), what).not.toBe('');
  for (const key of Object.keys(body.error)) expect(['code', 'message', 'details'], what).toContain(key);
  const { details } = body.error;
  if (details !== undefined) {
    expect(typeof details, what).toBe('object');
    expect(Array.isArray(details), what).toBe(false);
    for (const value of Object.values(details)) expect(typeof value, what).toBe('string');
  }
  if (options.details?.length === 0) expect(body.error, what).not.toHaveProperty('details');
  else if (options.details) expect(Object.keys(details ?? {}).sort(), what).toEqual([...options.details].sort());
  if (options.message !== undefined) expect(body.error.message, what).toMatch(options.message);
  return body;
}
