/** @module What every renderer needs to know about the request it renders for. */
import type { Caller, Policy } from '../domain/policy.js';
import type { Uris } from '../hypermedia/uris.js';

export interface RenderContext {
  /** Builds hrefs against the right base. */
  uris: Uris;
  /** Who is asking: controls depend on it. */
  caller: Caller;
  /** The predicates that decide, for renderers and routes alike, what the caller may do. */
  policy: Policy;
}
