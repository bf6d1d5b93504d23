/**
 * @module HTML forms can only GET and POST: a form POST may name PUT, PATCH or DELETE in a `_method` field,
 * and is dispatched again as that method, without the field. JSON bodies never mean another method.
 */
import type { Context, Hono } from 'hono';
import type { AppEnv } from '../env.js';

const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);
const FORM = 'application/x-www-form-urlencoded';

/** Set in the environment of a request dispatched again, so that it is logged once, as it arrived. */
export const DISPATCHED_AGAIN = Symbol('form method: dispatched again');

/**
 * For a form post standing for another method, the answer of the app to that method (dispatched again,
 * from the top); `undefined` for any other request, which goes on as it is.
 */
export function formMethod(app: Hono<AppEnv>): (c: Context<AppEnv>) => Promise<Response | undefined> {
  return async function applyFormMethod(c) {
    if (c.req.method !== 'POST' || !c.req.header('content-type')?.toLowerCase().startsWith(FORM)) return undefined;
    if (isDispatchedAgain(c.env)) return undefined;
    const fields = new URLSearchParams(await c.req.text());
    const method = fields.get('_method');
    if (method === null || !OVERRIDABLE.has(method)) return undefined;
    fields.delete('_method');
    const headers = new Headers(c.req.raw.headers);
    headers.delete('content-length');
    const request = new Request(c.req.url, { method, headers, body: fields.toString() });
    return app.fetch(request, { ...(c.env as object), [DISPATCHED_AGAIN]: true }, executionContextOf(c));
  };
}

export function isDispatchedAgain(env: unknown): boolean {
  return typeof env === 'object' && env !== null && DISPATCHED_AGAIN in env;
}

function executionContextOf(c: Context<AppEnv>) {
  try {
    return c.executionCtx;
  } catch {
    return undefined; // Node has none.
  }
}
