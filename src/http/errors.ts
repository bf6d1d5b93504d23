/** @module The one place where errors become responses, always in the seed's error shape. */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { databaseUnavailability } from '../db/errors.js';
import { CatalogueError, RequestAborted, ServiceUnavailable } from '../domain/errors.js';
import type { Format, PageContext } from '../formats/format.js';
import type { Logger } from '../log.js';
import { VARY } from './respond.js';

/**
 * `{"error":{"code","message","details?"}}` with the status and any headers the error calls for; a
 * format that presents errors itself (a browser's page) gets the same content to show.
 */
export function errorResponse(error: CatalogueError, format?: Format, page?: PageContext): Response {
  const content = { code: error.status, message: error.message, ...(error.details && { details: error.details }) };
  if (format?.error) {
    return new Response(format.error(content, page), {
      status: error.status,
      headers: { 'Content-Type': format.contentType, Vary: VARY, ...error.headers },
    });
  }
  return new Response(JSON.stringify({ error: content }), {
    status: error.status,
    // Which error a request gets can depend on its Accept (406, an HTML page) and its caller (401, 403, 404).
    headers: { 'Content-Type': 'application/json; charset=utf-8', Vary: VARY, ...error.headers },
  });
}

/**
 * Typed errors keep their status; a database that cannot be used now is a 503 with `Retry-After`, logged as
 * one line without the query or its parameters (they can hold token hashes and submitted values); anything
 * else unexpected is logged in full and answered as a plain 500.
 */
export function toCatalogueError(error: unknown, c: Context, log: Logger): CatalogueError {
  if (error instanceof RequestAborted) {
    log.info('client closed the connection before sending its whole request body', {
      method: c.req.method,
      path: c.req.path,
    });
  }
  if (error instanceof CatalogueError) return error;
  if (error instanceof HTTPException && error.status < 500) return new CatalogueError(error.status, error.message);
  const unavailability = databaseUnavailability(error);
  if (unavailability) {
    log.error(UNAVAILABLE[unavailability].log, { method: c.req.method, path: c.req.path, code: codeOf(error) });
    return new ServiceUnavailable(UNAVAILABLE[unavailability].message, RETRY_AFTER_SECONDS);
  }
  log.error('unhandled error', { method: c.req.method, path: c.req.path, error: withoutParameters(error) });
  return new CatalogueError(500, 'internal error; the service logged the details');
}

/** Long enough for a restarting database or a burst of slow queries to pass; short enough to feel live. */
const RETRY_AFTER_SECONDS = 2;

const UNAVAILABLE = {
  unreachable: {
    log: 'database unreachable',
    message: 'the catalogue cannot reach its database right now; try again shortly',
  },
  'over-budget': {
    log: 'query over its time budget',
    message: 'the catalogue is too busy to answer this in time; try again shortly',
  },
} as const;

/** The driver's code (SQLSTATE or socket error), the only detail of a database error worth a log line. */
function codeOf(error: unknown): string | undefined {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/**
 * An error as it may be logged: a failed query's message and stack carry its parameters (token hashes,
 * submitted titles and names), which the log must not keep; the query text itself is the service's own.
 */
export function withoutParameters(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const scrub = (text: string | undefined) => text?.replace(/^params: .*$/gm, 'params: (not logged)');
  const code = (error as { code?: unknown }).code;
  return {
    name: error.name,
    message: scrub(error.message),
    ...(typeof code === 'string' && { code }),
    stack: scrub(error.stack),
    ...(error.cause !== undefined && { cause: withoutParameters(error.cause) }),
  };
}
