/** @module One log line per request: method, path, status and duration. Never headers (they carry tokens). */
import type { HonoRequest } from 'hono';
import type { Logger } from '../../log.js';

/** Logs `request`, answered now with `status`, which arrived at `started` (`performance.now()`). */
export function logRequest(log: Logger, request: HonoRequest, status: number, started: number): void {
  log.info('request', {
    method: request.method,
    path: request.path,
    status,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
  });
}
