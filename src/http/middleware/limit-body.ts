/**
 * @module Refuses request bodies over their limit (413) before anything reads them: `MAX_BODY_BYTES` for a
 * request's fields, the import limit for a file (`CATALOGUE_IMPORT_MAX_BYTES`). Asked only of requests
 * that may carry a body: GET and HEAD cannot (a Fetch `Request` cannot hold one), and asking builds the
 * Web `Request` that @hono/node-server otherwise never needs.
 */
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { PayloadTooLarge } from '../../domain/errors.js';
import { MAX_BODY_BYTES } from '../../domain/limits.js';

/**
 * A file's limit (an import): a declared `Content-Length` over it is refused unread; a body without one is
 * counted by its reader as it streams (`http/upload.ts`). Hono's `bodyLimit` reads such a body whole into
 * memory before the handler runs, which a file of hundreds of megabytes must never be.
 */
export function uploadLimiter(maxBytes: number): (c: Context) => Promise<void> {
  return async function limitUploadTo(c) {
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined && Number(declared) > maxBytes) {
      throw new PayloadTooLarge(maxBytes);
    }
  };
}

/** A body limit of `maxBytes`; see `limitBody`. */
export function bodyLimiter(maxBytes: number): (c: Context) => Promise<void> {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new PayloadTooLarge(maxBytes);
    },
  });
  return async function limitBodyTo(c) {
    await limit(c, async () => {});
  };
}

/**
 * Throws `PayloadTooLarge` for a declared length over the limit (the body unread), or for a body without
 * one that grows past it as it streams in; otherwise the request's body is from then on the part read.
 */
export const limitBody = bodyLimiter(MAX_BODY_BYTES);
