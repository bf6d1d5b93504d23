/** @module Renders a branch's closures: one closed date, and the collection of them. */
import { offered } from '../affordances/affordance.js';
import { addClosure, removeClosure } from '../affordances/branch-closures.js';
import type { RenderContext } from '../affordances/context.js';
import type { BranchClosure } from '../domain/branch-closures.js';
import type { Resource } from '../hypermedia/model.js';
import { firstPage } from '../hypermedia/uris.js';
import type { Collection } from './collection.js';
import { pick } from './pick.js';

/** A closure; one just added carries `moved_loans`, the loans due that day moved to the next open day. */
export function renderClosure(
  closure: BranchClosure & { moved_loans?: number },
  ctx: RenderContext,
  options: { fields?: string[] | undefined; asItem?: boolean } = {},
): Resource {
  const { uris } = ctx;
  const state: Record<string, unknown> = {
    id: closure.id,
    branch_id: closure.branch_id,
    date: closure.date,
    reason: closure.reason,
    created_at: closure.created_at,
    ...(closure.moved_loans !== undefined && { moved_loans: closure.moved_loans }),
  };
  return {
    kind: 'closure',
    state: pick(state, options.fields),
    links: [
      { rel: 'self', href: uris.branchClosure(closure.branch_id, closure.id) },
      { rel: 'collection', href: uris.branchClosures(closure.branch_id, firstPage) },
      { rel: 'branch', href: uris.branch(closure.branch_id) },
    ],
    controls: options.asItem ? [] : offered(ctx, closure, [removeClosure]),
  };
}

/** A branch's closures, in date order, with the librarians' `create` control. */
export function closuresCollection(ctx: RenderContext, branch: { id: number; name: string }): Collection {
  const { uris } = ctx;
  return {
    itemKind: 'closure',
    uri: (params) => uris.branchClosures(branch.id, params),
    controls: offered(ctx, branch, [addClosure]),
    links: [{ rel: 'up', href: uris.branch(branch.id), title: branch.name }],
  };
}
