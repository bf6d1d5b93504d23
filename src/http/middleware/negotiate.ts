/** @module Chooses the response format from `Accept` once per request; 406 when none fits. */
import type { MiddlewareHandler } from 'hono';
import { NotAcceptable } from '../../domain/errors.js';
import type { Format } from '../../formats/format.js';
import { negotiate } from '../../formats/registry.js';
import type { AppEnv } from '../env.js';

export function negotiateFormat(formats: readonly Format[]): MiddlewareHandler<AppEnv> {
  const mediaTypes = formats.flatMap((f) => f.mediaTypes);
  return async function chooseFormat(c, next) {
    const format = negotiate(c.req.header('accept'), formats);
    if (!format) throw new NotAcceptable(mediaTypes);
    c.set('format', format);
    await next();
  };
}
