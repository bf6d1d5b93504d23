/**
 * @module Refuses request bodies over `MAX_BODY_BYTES` (413) before anything reads them. GET and HEAD
 * carry no body (a Fetch `Request` cannot hold one), so they pass without asking: asking builds the Web
 * `Request` that @hono/node-server otherwise never needs, a cost measured on every read.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PayloadTooLarge } from '../../domain/errors.js';
import { MAX_BODY_BYTES } from '../../domain/limits.js';

export function limitBody(): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new PayloadTooLarge(MAX_BODY_BYTES);
    },
  });
  return async function limitBodySize(c, next) {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    return limit(c, next);
  };
}
