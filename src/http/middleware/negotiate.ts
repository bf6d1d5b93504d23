/** @module Chooses the response format from `Accept` once per request; 406 when none fits. */
import type { Context } from 'hono';
import { NotAcceptable } from '../../domain/errors.js';
import { type Format, writesKind } from '../../formats/format.js';
import { negotiate, preferred } from '../../formats/registry.js';
import type { ResourceKind, ResourceStream } from '../../hypermedia/model.js';
import type { AppEnv } from '../env.js';

/**
 * The format of `formats` that the request's `Accept` prefers; 406 (`NotAcceptable`) when none fits.
 * A route that also answers other media types (an event stream) names them in `alsoProduces`: a request
 * for one of those alone gets the first format, for its errors, and the route answers it its own way.
 */
export function chooseFormat(c: Context, formats: readonly Format[], alsoProduces?: readonly MediaTypes[]): Format {
  const accept = c.req.header('accept');
  const format = negotiate(accept, formats);
  if (format) return format;
  if (alsoProduces && preferred(accept, alsoProduces)) return formats[0] as Format;
  throw new NotAcceptable([...formats, ...(alsoProduces ?? [])].flatMap((f) => f.mediaTypes));
}

/** What a route answers besides the formats, listed once when the route is registered. */
export type MediaTypes = { readonly mediaTypes: readonly string[] };

/**
 * The format of `formats` that `Accept` prefers, or else the first of them: for an endpoint that speaks a
 * protocol of its own (MCP, whose clients accept `text/event-stream`), where only the catalogue's own
 * errors (401, 405, 413) come in a catalogue format, and a client's `Accept` is no reason to refuse it.
 */
export function preferredFormat(c: Context, formats: readonly Format[]): Format {
  const format = negotiate(c.req.header('accept'), formats) ?? formats[0];
  if (!format) throw new NotAcceptable([]);
  return format;
}

/**
 * The format to write a resource of `kind` in: the one negotiated for the request when it writes that kind,
 * else the one `Accept` likes best among the formats that do (MARC asked for first, JSON second, on an
 * author: JSON); 406 when none does. It becomes the request's format, for its errors too.
 */
export function formatFor(c: Context<AppEnv>, kind: ResourceKind | ResourceStream['kind']): Format {
  const format = c.get('format');
  if (writesKind(format, kind)) return format;
  const able = c.get('formats').filter((candidate) => writesKind(candidate, kind));
  const chosen = negotiate(c.req.header('accept'), able);
  if (!chosen) throw new NotAcceptable(able.flatMap((candidate) => candidate.mediaTypes));
  c.set('format', chosen);
  return chosen;
}
