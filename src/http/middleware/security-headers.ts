/**
 * @module Headers that keep browsers safe with whatever the catalogue sends: no sniffing, no framing, no
 * referrer leaking, and a Content-Security-Policy that allows only the catalogue's own script and style.
 */

export const securityHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
};

/**
 * Marks responses built with every security header already (by `respond`), which need no second look.
 * A property rather than a WeakSet, which would give the garbage collector an entry per response.
 */
const SECURED = Symbol('secured');

export function securedResponse(response: Response): Response {
  (response as Response & { [SECURED]?: true })[SECURED] = true;
  return response;
}

/** Adds to `response` the security headers it lacks. */
export function secure(response: Response): void {
  // Reading `headers` turns a response's plain header record into a Web `Headers`: skip it when there is
  // nothing to add.
  if ((response as Response & { [SECURED]?: true })[SECURED]) return;
  for (const name in securityHeaders) {
    if (!response.headers.has(name)) response.headers.set(name, securityHeaders[name] as string);
  }
}
