/**
 * @module HTML forms can only GET and POST. A form POST (and only a form POST) may name the method it
 * stands for in a `_method` field — PUT, PATCH or DELETE — and is handled as that method. JSON clients
 * use the real methods; a `_method` in JSON means nothing.
 */
import type { MiddlewareHandler } from 'hono';
import { methodOverride } from 'hono/method-override';

const OVERRIDABLE = /(?:^|&)_method=(PUT|PATCH|DELETE)(?:&|$)/;

export function formMethod(app: Parameters<typeof methodOverride>[0]['app']): MiddlewareHandler {
  const override = methodOverride({ app });
  return async function applyFormMethod(c, next) {
    const type = c.req.header('content-type') ?? '';
    if (c.req.method !== 'POST' || !type.startsWith('application/x-www-form-urlencoded')) return next();
    if (!OVERRIDABLE.test(await c.req.raw.clone().text())) return next();
    return override(c, next);
  };
}
