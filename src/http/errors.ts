/**
 * @module The one place where errors become responses: the seed's error shape, or a problem document
 * (RFC 9457) for a client whose `Accept` names `application/problem+json`.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { codeOf, databaseUnavailability } from '../db/errors.js';
import { CatalogueError, RequestAborted, ServiceUnavailable } from '../domain/errors.js';
import type { ErrorContent, Format, PageContext } from '../formats/format.js';
import { asksForProblemDetails, PROBLEM_JSON } from '../formats/registry.js';
import { problemTypeOf, problemTypeUri } from '../hypermedia/problems.js';
import type { Logger } from '../log.js';
import { VARY } from './respond.js';

/** What an error's answer depends on besides the error. */
export interface ErrorRequest {
  /** The request's `Accept`: `application/problem+json` in it asks for a problem document. */
  accept: string | undefined;
  /** The profile's href (path-absolute, or under the public base), whose fragments name the problem types. */
  profile: string;
  /** The negotiated format, when negotiation got that far; one that presents errors (a page) is asked to. */
  format?: Format | undefined;
  page?: PageContext | undefined;
}

/**
 * The error with its status and any headers it calls for, written one of three ways: a problem document
 * when asked for; a format's own (a browser's page); otherwise `{"error":{"code","message","details?"}}`.
 */
export function errorResponse(error: CatalogueError, request: ErrorRequest): Response {
  const content: ErrorContent = {
    code: error.status,
    message: error.message,
    ...(error.details && { details: error.details }),
  };
  // Which error a request gets, and how it is written, depends on its Accept (406, a page, a problem
  // document) and its caller (401, 403, 404).
  const headers = { Vary: VARY, ...error.headers };
  if (asksForProblemDetails(request.accept)) {
    return new Response(JSON.stringify(problemDocument(content, request.profile)), {
      status: error.status,
      headers: { 'Content-Type': PROBLEM_JSON, ...headers },
    });
  }
  const { format } = request;
  if (format?.error) {
    return new Response(format.error(content, request.page), {
      status: error.status,
      headers: { 'Content-Type': format.contentType, ...headers },
    });
  }
  return new Response(JSON.stringify({ error: content }), {
    status: error.status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

/**
 * The same content as RFC 9457 members: `type` (a fragment of the profile), `title`, `status`,
 * `detail` (the message), the seed's `code`, and per-field `errors` (`[{field, message}]`) where the
 * seed has `details`.
 */
export function problemDocument(content: ErrorContent, profile: string) {
  const type = problemTypeOf(content.code);
  return {
    type: problemTypeUri(profile, type),
    title: type.title,
    status: content.code,
    detail: content.message,
    code: content.code,
    ...(content.details && {
      errors: Object.entries(content.details).map(([field, message]) => ({ field, message })),
    }),
  };
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
  'read-only': {
    log: 'database read-only (a standby, or a primary being failed over)',
    message: 'the catalogue cannot write to its database right now; try again shortly',
  },
  contended: {
    log: 'transaction rolled back for a concurrent one',
    message: 'the catalogue was busy with a conflicting change; try again',
  },
  'over-budget': {
    log: 'query over its time budget',
    message: 'the catalogue is too busy to answer this in time; try again shortly',
  },
} as const;

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
