/** @module The one place where errors become responses, always in the seed's error shape. */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { CatalogueError } from '../domain/errors.js';
import type { Format, PageContext } from '../formats/format.js';
import type { Logger } from '../log.js';

/**
 * `{"error":{"code","message","details?"}}` with the status and any headers the error calls for; a
 * format that presents errors itself (a browser's page) gets the same content to show.
 */
export function errorResponse(error: CatalogueError, format?: Format, page?: PageContext): Response {
  const content = { code: error.status, message: error.message, ...(error.details && { details: error.details }) };
  if (format?.error) {
    return new Response(format.error(content, page), {
      status: error.status,
      headers: { 'Content-Type': format.contentType, Vary: 'Accept, Authorization', ...error.headers },
    });
  }
  return new Response(JSON.stringify({ error: content }), {
    status: error.status,
    // Which error a request gets can depend on its Accept (406, an HTML page) and its caller (401, 403, 404).
    headers: { 'Content-Type': 'application/json; charset=utf-8', Vary: 'Accept, Authorization', ...error.headers },
  });
}

/** Typed errors keep their status; anything unexpected is logged in full and answered as a plain 500. */
export function toCatalogueError(error: unknown, c: Context, log: Logger): CatalogueError {
  if (error instanceof CatalogueError) return error;
  if (error instanceof HTTPException && error.status < 500) return new CatalogueError(error.status, error.message);
  log.error('unhandled error', { method: c.req.method, path: c.req.path, error });
  return new CatalogueError(500, 'internal error; the service logged the details');
}
