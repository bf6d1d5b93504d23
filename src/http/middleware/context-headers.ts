/**
 * @module Notes whether anything set a header on the context (`c.header`: a cookie, rate-limit state)
 * before the response exists. `respond` hands its plain header record straight to the response unless
 * there is something of the context's to merge: merging builds a Web `Headers` for every response.
 */
import type { Context } from 'hono';

const SET = Symbol('a header was set on the context');
const OWN_HEADER = Symbol("the context's own header()");

type Noted = Context & { [SET]?: true; [OWN_HEADER]: Context['header'] };

/**
 * `c.header` while noting: one function for every context, reached through `this`, rather than a closure
 * made per request (a closure over the request, per request, is more to allocate and collect).
 */
function notingHeader(this: Noted, ...args: Parameters<Context['header']>) {
  this[SET] = true;
  return this[OWN_HEADER](...args);
}

/** From now on, remembers whether anything sets a header on `c`. */
export function noteContextHeaders(c: Context): void {
  // Every way of setting a context header (hono/cookie included) calls `c.header(…)` as a method.
  const noted = c as Noted;
  noted[OWN_HEADER] = c.header;
  c.header = notingHeader as Context['header'];
}

/** Whether a header was set on this context. */
export function contextHeadersSet(c: Context): boolean {
  return (c as Noted)[SET] === true;
}
