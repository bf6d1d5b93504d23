/** @module What every renderer needs to know about the request it renders for. */
import type { Caller, Decision, Policy } from '../domain/policy.js';
import type { Uris } from '../hypermedia/uris.js';
import type { ControlName } from '../hypermedia/vocabulary.js';

/**
 * The controls a renderer asked for and the policy refused, by name, each with its decision (whose
 * refusal is what submitting the control would be answered). Kept only for a request that asks why.
 */
export type Withheld = Map<ControlName, Decision>;

export interface RenderContext {
  /** Builds hrefs against the right base. */
  uris: Uris;
  /** Who is asking: controls depend on it. */
  caller: Caller;
  /** The predicates that decide, for renderers and routes alike, what the caller may do. */
  policy: Policy;
  /** Where refused controls are noted, when the request asked why (the MCP tools, in process). */
  withheld?: Withheld;
}
