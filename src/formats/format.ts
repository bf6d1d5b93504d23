/**
 * @module The extension point for media types. A format translates the neutral resource model into
 * bytes of one media type and decides nothing: which links and controls exist was settled by the
 * renderers. Adding a media type is a new module implementing `Format` plus one line in `registry.ts`.
 */
import type { Resource, ResourceStream } from '../hypermedia/model.js';

export interface Format {
  /** The media type produced, as sent in `Content-Type` (parameters included). */
  contentType: string;
  /** Media types in `Accept` that select this format, most specific first. */
  mediaTypes: readonly string[];
  /** A whole document. */
  resource(resource: Resource): string;
  /** A collection sent whole as its items arrive, in chunks. */
  stream(stream: ResourceStream): AsyncIterable<string>;
}
