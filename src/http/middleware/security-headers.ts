/**
 * @module Headers that keep browsers safe with whatever the catalogue sends: no sniffing, no framing, no
 * referrer leaking, and a Content-Security-Policy that allows only the catalogue's own script and style.
 */
import type { MiddlewareHandler } from 'hono';

const headers: Record<string, string> = {
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

export function securityHeaders(): MiddlewareHandler {
  return async function addSecurityHeaders(c, next) {
    await next();
    for (const [name, value] of Object.entries(headers)) {
      if (!c.res.headers.has(name)) c.res.headers.set(name, value);
    }
  };
}
