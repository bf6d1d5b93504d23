/** @module What the middleware hands every route handler. */

import type { RenderContext } from '../affordances/context.js';
import type { Database } from '../db/client.js';
import type { LendingRulesCache } from '../db/lending-rules.js';
import type { Clock } from '../domain/clock.js';
import type { Format } from '../formats/format.js';
import type { Uris } from '../hypermedia/uris.js';
import type { Deprecations } from './deprecation.js';
import type { RateLimiter } from './rate-limit.js';

export interface AppEnv {
  Variables: {
    database: Database;
    /** The negotiated response format. */
    format: Format;
    /** Every format the app speaks, for a resource the negotiated one cannot write (`formatFor`). */
    formats: readonly Format[];
    /** The caller and URI builder, for renderers. */
    ctx: RenderContext;
    /** Builds hrefs; set before the caller is known (errors need it too). */
    uris: Uris;
    /** The deprecated rels and controls, announced in the responses that carry them. */
    deprecations: Deprecations;
    /** Per-caller limits on expensive work; absent when the operator turned them off. */
    rateLimiter: RateLimiter | undefined;
    /** Matches counted exactly (and searches ranked) per listing; see `EXACT_COUNT_LIMIT`. */
    listingCountLimit: number;
    /** Items a `page=N` jump may skip by OFFSET; see `PAGE_JUMP_LIMIT`. */
    pageJumpLimit: number;
    /** Business time: what circulation steps and reads take as now (`AppOptions.clock`). */
    clock: Clock;
    /** The lending rules remembered, for a book read's controls. */
    lendingRules: LendingRulesCache;
  };
}
