/**
 * @module Refuses request bodies over `MAX_BODY_BYTES` (413) before anything reads them. Asked only of
 * requests that may carry a body: GET and HEAD cannot (a Fetch `Request` cannot hold one), and asking
 * builds the Web `Request` that @hono/node-server otherwise never needs.
 */
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PayloadTooLarge } from '../../domain/errors.js';
import { MAX_BODY_BYTES } from '../../domain/limits.js';

const limit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new PayloadTooLarge(MAX_BODY_BYTES);
  },
});

/**
 * Throws `PayloadTooLarge` for a declared length over the limit (the body unread), or for a body without
 * one that grows past it as it streams in; otherwise the request's body is from then on the part read.
 */
export async function limitBody(c: Context): Promise<void> {
  await limit(c, async () => {});
}
