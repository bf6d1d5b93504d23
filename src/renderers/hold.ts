/**
 * @module Renders a hold: its place in the queue or its copy (on its way or set aside), the book, the branch
 * where it is collected, and `cancel` and `change_pickup` while allowed.
 */
import { offered } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import { cancelHold, changePickup } from '../affordances/holds.js';
import type { Hold } from '../domain/hold.js';
import type { Link, Resource } from '../hypermedia/model.js';
import { firstPage } from '../hypermedia/uris.js';
import { pick } from './pick.js';

export function renderHold(
  hold: Hold,
  ctx: RenderContext,
  options: { fields?: string[] | undefined; asItem?: boolean } = {},
): Resource {
  const { uris } = ctx;
  const links: Link[] = [
    { rel: 'self', href: uris.hold(hold.id) },
    { rel: 'book', href: uris.book(hold.book_id) },
    { rel: 'borrower', href: uris.user(hold.borrower_id) },
    { rel: 'pickup_branch', href: uris.branch(hold.pickup_branch_id) },
    { rel: 'collection', href: uris.userHolds(hold.borrower_id, firstPage) },
  ];
  if (hold.copy_id !== null) links.push({ rel: 'copy', href: uris.copy(hold.copy_id) });
  if (hold.loan_id !== null) links.push({ rel: 'loan', href: uris.loan(hold.loan_id) });
  return {
    kind: 'hold',
    state: pick(
      {
        id: hold.id,
        book_id: hold.book_id,
        borrower_id: hold.borrower_id,
        placed_at: hold.placed_at,
        status: hold.status,
        pickup_branch_id: hold.pickup_branch_id,
        position: hold.position,
        copy_id: hold.copy_id,
        ready_until: hold.ready_until,
        ended_at: hold.ended_at,
        loan_id: hold.loan_id,
      },
      options.fields,
    ),
    links,
    controls: options.asItem ? [] : offered(ctx, hold, [cancelHold, changePickup]),
  };
}
