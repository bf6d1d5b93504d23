/** @module One log line per request: method, path, status and duration. Never headers (they carry tokens). */
import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../../log.js';
import { isDispatchedAgain } from './form-method.js';

export function requestLog(log: Logger): MiddlewareHandler {
  return async function logRequest(c, next) {
    // A form standing for another method runs the chain twice; its line is the one of the request as sent.
    if (isDispatchedAgain(c.env)) return next();
    const started = performance.now();
    await next();
    log.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      duration_ms: Math.round((performance.now() - started) * 100) / 100,
    });
  };
}
