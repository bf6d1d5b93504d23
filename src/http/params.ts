/** @module Path and query parameters. */
import type { Context } from 'hono';
import { NotFound } from '../domain/errors.js';
import { idOf } from '../domain/limits.js';
import type { QueryParams } from '../domain/listing.js';
import type { AppEnv } from './env.js';

/**
 * A path identifier. Anything but a positive whole number in PostgreSQL's `integer` range names no
 * resource: 404, the same as an id that was never assigned.
 */
export function idParam(c: Context, name: string, what: string): number {
  const raw = c.req.param(name) ?? '';
  const id = idOf(raw);
  if (id === undefined) throw new NotFound(`${what} ${raw} not found`);
  return id;
}

/** Every query parameter with all its values; empty ones dropped where the format's forms send them. */
export function queryParams(c: Context<AppEnv>): QueryParams {
  const params = c.req.queries() ?? {};
  if (!c.get('format').sendsEmptyParameters) return params;
  return Object.fromEntries(
    Object.entries(params)
      .map(([name, values]) => [name, values.filter((v) => v !== '')] as const)
      .filter(([, values]) => values.length > 0),
  );
}
