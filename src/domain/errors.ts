/**
 * @module Typed errors of the catalogue. Each carries the HTTP status it means; the app maps them to the
 * error shape `{"error":{"code","message","details?"}}` in one place.
 */

/** Per-field messages, keyed by the same names the controls' fields use. */
export type ErrorDetails = Record<string, string>;

export class CatalogueError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: ErrorDetails,
    /** Extra response headers the status calls for (`Allow` on 405). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the request is malformed or a value is unacceptable. */
export class InvalidInput extends CatalogueError {
  constructor(message: string, details?: ErrorDetails) {
    super(400, message, details);
  }
}

/**
 * 400: `page=N` deeper than a page number reaches in the listing's order (`Listing.jumpLimit`). It says how
 * to reach the page by cursor: from `deepest`, the deepest page a number reaches, by its `next` links
 * (`href`, once the listing's URI is known: `at`), or from the `last` page backwards.
 */
export class PageTooDeep extends InvalidInput {
  constructor(
    readonly page: number,
    readonly deepest: number,
    href?: string,
  ) {
    const from = href === undefined ? `page=${deepest}` : href;
    super(
      `page ${page} is deeper than a page number reaches in this order (page ${deepest}); open ${from} and ` +
        'follow its "next" links, or the "last" link and its "prev" links: each reads on from the page before, ' +
        'whatever its depth',
      {
        page: `at most ${deepest} in this order; deeper pages are reached by their cursor, following "next" from ${from}`,
      },
    );
  }

  /** The same refusal, naming the deepest page's URI. */
  at(href: string): PageTooDeep {
    return new PageTooDeep(this.page, this.deepest, href);
  }
}

/** 404: nothing lives at this URI. */
export class NotFound extends CatalogueError {
  constructor(message: string) {
    super(404, message);
  }
}

/** 405: the resource exists but does not take this method. */
export class MethodNotAllowed extends CatalogueError {
  constructor(method: string, allowed: readonly string[]) {
    super(405, `${method} is not allowed here; allowed: ${allowed.join(', ')}`, undefined, {
      Allow: allowed.join(', '),
    });
  }
}

/** 406: none of the media types the client accepts can be produced. */
export class NotAcceptable extends CatalogueError {
  constructor(available: readonly string[]) {
    super(406, `none of the accepted media types can be produced; available: ${available.join(', ')}`);
  }
}

/** 409: the request conflicts with the current state (e.g. deleting an author who still has books). */
export class Conflict extends CatalogueError {
  constructor(message: string, details?: ErrorDetails) {
    super(409, message, details);
  }
}

/** 412: an `If-Match` precondition names a version that is no longer current. */
export class PreconditionFailed extends CatalogueError {
  constructor() {
    super(412, 'the resource has changed since the given ETag; fetch it again and retry');
  }
}

/** 413: the body is larger than the service accepts. */
export class PayloadTooLarge extends CatalogueError {
  constructor(limit: number) {
    super(413, `request body is larger than the limit of ${limit} bytes`);
  }
}

/** 415: the body is not JSON. */
export class UnsupportedMediaType extends CatalogueError {
  constructor(accepted: string) {
    super(415, `request body must be sent as ${accepted}`);
  }
}

/** 422: the body is well-formed but refers to something that does not exist. */
export class UnprocessableEntity extends CatalogueError {
  constructor(message: string, details?: ErrorDetails) {
    super(422, message, details);
  }
}

/** 401: no valid credentials; the client should authenticate with a bearer token. */
export class Unauthorized extends CatalogueError {
  /** `headers` adds to the challenge (a `Link` to where one signs in). */
  constructor(message = 'sign in: send Authorization: Bearer <token>', headers: Record<string, string> = {}) {
    super(401, message, undefined, { 'WWW-Authenticate': 'Bearer realm="catalogue"', ...headers });
  }
}

/** 403: authenticated, but the role does not allow this. */
export class Forbidden extends CatalogueError {
  constructor(message: string) {
    super(403, message);
  }
}

/**
 * 429: too many tries of something guessable (a library card's PIN); `Retry-After` says when it may be
 * tried again.
 */
export class TooManyTries extends CatalogueError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** 410: what was asked for existed once and is gone for good (a change feed cursor older than retention). */
export class Gone extends CatalogueError {
  constructor(message: string) {
    super(410, message);
  }
}

/**
 * 503: the service cannot answer now but will: the database is unreachable, or a query ran past its time
 * budget. `Retry-After` says when to try again.
 */
export class ServiceUnavailable extends CatalogueError {
  constructor(message: string, retryAfterSeconds: number) {
    super(503, message, undefined, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/**
 * The client closed the connection before its request body arrived in full. Nobody will read the answer;
 * the status is for the log.
 */
export class RequestAborted extends CatalogueError {
  constructor() {
    super(400, 'the request body did not arrive in full: the client closed the connection');
  }
}
