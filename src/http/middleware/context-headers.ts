/**
 * @module Notes whether anything set a header on the context (`c.header`: a cookie, rate-limit state)
 * before the response exists. `respond` hands its plain header record straight to the response unless
 * there is something of the context's to merge: merging builds a Web `Headers` for every response.
 */
import type { Context } from 'hono';

const noted = new WeakSet<Context>();

/** From now on, remembers whether anything sets a header on `c`. */
export function noteContextHeaders(c: Context): void {
  // Every way of setting a context header (hono/cookie included) goes through `c.header`.
  const header = c.header;
  c.header = ((...args: Parameters<typeof header>) => {
    noted.add(c);
    return header(...args);
  }) as typeof header;
}

/** Whether a header was set on this context. */
export function contextHeadersSet(c: Context): boolean {
  return noted.has(c);
}
