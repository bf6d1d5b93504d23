/** @module Chooses the response format from `Accept` once per request; 406 when none fits. */
import type { MiddlewareHandler } from 'hono';
import { NotAcceptable } from '../../domain/errors.js';
import { formats, negotiate } from '../../formats/registry.js';
import type { AppEnv } from '../env.js';

export function negotiateFormat(): MiddlewareHandler<AppEnv> {
  const available = formats.flatMap((f) => f.mediaTypes);
  return async function chooseFormat(c, next) {
    const format = negotiate(c.req.header('accept'));
    if (!format) throw new NotAcceptable(available);
    c.set('format', format);
    await next();
  };
}
