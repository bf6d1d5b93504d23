/** @module Conditional request headers (RFC 9110 §13): `If-None-Match` and `If-Match`. */
import { type CatalogueError, PreconditionFailed } from '../domain/errors.js';
import { INT4_MAX } from '../domain/limits.js';

/** Weak comparison, as `If-None-Match` uses: `W/` is ignored; `*` matches any current representation. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/**
 * The stored versions an `If-Match` header accepts: `undefined` when it is absent or `*` (no condition
 * beyond existence). Weak or foreign tags never match strongly, so they contribute nothing and a
 * header of only such tags accepts no version: the write answers 412.
 */
export function ifMatchVersions(header: string | undefined): number[] | undefined {
  if (header === undefined) return undefined;
  const tags = header.split(',').map((t) => t.trim());
  if (tags.includes('*')) return undefined;
  return tags
    .flatMap((tag) => {
      const match = /^"(\d{1,10})-[A-Za-z0-9_-]*"$/.exec(tag);
      return match ? [Number(match[1])] : [];
    })
    .filter((v) => v <= INT4_MAX);
}

/**
 * A write under `If-Match`. The precondition is evaluated before the request body is even read, as
 * RFC 9110 §13.2.2 orders it (a stale tag answers 412 whatever the body holds), and enforced again by
 * the write itself, which only touches the row at one of the given versions, so no race slips through.
 */
export async function writeIfMatch<T>(
  ifMatch: string | undefined,
  steps: {
    find: () => Promise<{ version: number } | undefined>;
    notFound: () => CatalogueError;
    write: (versions: number[] | undefined) => Promise<T | undefined>;
  },
): Promise<T> {
  const versions = ifMatchVersions(ifMatch);
  if (versions) {
    const current = await steps.find();
    if (!current) throw steps.notFound();
    if (!versions.includes(current.version)) throw new PreconditionFailed();
  }
  const written = await steps.write(versions);
  if (written !== undefined) return written;
  throw (await steps.find()) ? new PreconditionFailed() : steps.notFound();
}
