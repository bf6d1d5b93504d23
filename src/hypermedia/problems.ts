/**
 * @module The problem types (RFC 9457): one per error status the catalogue answers, named by a fragment
 * of the profile (`<profile>#problem-<slug>`). The error mapping, the profile and the docs read this list.
 */

/** What one kind of error means. */
export interface ProblemType {
  /** The fragment's name after `problem-`: `not-found` is `<profile>#problem-not-found`. */
  slug: string;
  /** RFC 9457 `title`: the same for every occurrence of the type. */
  title: string;
  /** When it is answered and what a client does about it. */
  means: string;
}

/** Every problem type, by the HTTP status (the seed's `code`) it is answered with. */
export const problemTypes: Readonly<Record<number, ProblemType>> = {
  400: {
    slug: 'invalid-input',
    title: 'Invalid input',
    means:
      'The request is malformed or a value is unacceptable; `errors` lists each offending field or parameter. ' +
      'Correct the values and send again.',
  },
  401: {
    slug: 'unauthenticated',
    title: 'Sign in required',
    means: 'No valid credentials were sent: send `Authorization: Bearer <token>` (see `WWW-Authenticate`).',
  },
  403: {
    slug: 'forbidden',
    title: 'Not allowed',
    means: 'The caller is signed in, but their role does not allow this. Sending it again will not help.',
  },
  404: {
    slug: 'not-found',
    title: 'Not found',
    means: 'Nothing the caller may see lives at this URI. Follow links rather than building URIs.',
  },
  405: {
    slug: 'method-not-allowed',
    title: 'Method not allowed',
    means: 'The resource does not take this method; `Allow` lists those it does.',
  },
  406: {
    slug: 'not-acceptable',
    title: 'Not acceptable',
    means: 'None of the media types in `Accept` can be produced; the detail lists those that can.',
  },
  409: {
    slug: 'conflict',
    title: 'Conflict',
    means: 'The request conflicts with the current state (a book already lent, an author who has books).',
  },
  410: {
    slug: 'gone',
    title: 'Gone',
    means:
      'What was named is no longer kept (a change-feed cursor older than retention): start again from the first page.',
  },
  412: {
    slug: 'precondition-failed',
    title: 'Changed since',
    means: '`If-Match` names a version that is no longer current: read the resource again, then retry.',
  },
  413: {
    slug: 'payload-too-large',
    title: 'Body too large',
    means: 'The request body is larger than the service accepts.',
  },
  415: {
    slug: 'unsupported-media-type',
    title: 'Unsupported body',
    means: 'The request body is not of the media type the control names (JSON).',
  },
  422: {
    slug: 'unprocessable',
    title: 'Refers to nothing',
    means: 'The body is well-formed but refers to something that does not exist; `errors` names the field.',
  },
  429: {
    slug: 'too-many-requests',
    title: 'Too many requests',
    means: 'The caller has spent a rate limit; `Retry-After` says when to try again.',
  },
  500: {
    slug: 'internal',
    title: 'Internal error',
    means: 'Something unexpected failed; the service logged the details.',
  },
  503: {
    slug: 'unavailable',
    title: 'Unavailable',
    means: 'The database does not answer or a query ran past its time budget; retry after `Retry-After` seconds.',
  },
};

/** Any other refusal of a request as sent (a status not listed above). */
export const otherClientError: ProblemType = {
  slug: 'client-error',
  title: 'Refused',
  means: 'The request cannot be answered as sent; the detail says why.',
};

/** The type of an error with this status; an unlisted status is described by its class. */
export function problemTypeOf(status: number): ProblemType {
  return problemTypes[status] ?? (status >= 500 ? (problemTypes[500] as ProblemType) : otherClientError);
}

/** The URI of a problem type: a fragment of the profile, where the type is described. */
export function problemTypeUri(profile: string, type: ProblemType): string {
  return `${profile}#problem-${type.slug}`;
}
