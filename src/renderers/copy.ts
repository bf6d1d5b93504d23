/**
 * @module Renders a copy: its barcode and where it is, its book, its home branch, the branch it is at and
 * (in transit) the one it is going to, its item type, `receive` while in transit, `withdraw` while allowed
 * and `update` (its branch and item type).
 */
import { offered } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import { changeCopy, receiveCopy, withdrawCopy } from '../affordances/copies.js';
import { type Copy, copyLabel } from '../domain/copy.js';
import type { Link, Resource } from '../hypermedia/model.js';
import { firstPage } from '../hypermedia/uris.js';
import { pick } from './pick.js';

export function renderCopy(
  copy: Copy,
  ctx: RenderContext,
  options: { fields?: string[] | undefined; asItem?: boolean } = {},
): Resource {
  const { uris, policy, caller } = ctx;
  const links: Link[] = [
    { rel: 'self', href: uris.copy(copy.id) },
    { rel: 'book', href: uris.book(copy.book_id) },
    { rel: 'collection', href: uris.bookCopies(copy.book_id, firstPage) },
  ];
  // Each to the callers who may read it: branches, everyone signed in; item types, librarians.
  if (policy.seeBranches(caller).allowed) {
    links.push({ rel: 'branch', href: uris.branch(copy.branch_id) });
    links.push({ rel: 'location', href: uris.branch(copy.location_branch_id) });
    if (copy.transit_to_branch_id !== null) {
      links.push({ rel: 'destination', href: uris.branch(copy.transit_to_branch_id) });
    }
  }
  if (policy.manageLending(caller).allowed) links.push({ rel: 'item_type', href: uris.itemType(copy.item_type_id) });
  return {
    kind: 'copy',
    state: pick(
      {
        id: copy.id,
        book_id: copy.book_id,
        barcode: copy.barcode,
        label: copyLabel(copy),
        status: copy.status,
        due_at: copy.due_at,
        added_at: copy.added_at,
        withdrawn_at: copy.withdrawn_at,
        branch_id: copy.branch_id,
        location_branch_id: copy.location_branch_id,
        transit_to_branch_id: copy.transit_to_branch_id,
        item_type_id: copy.item_type_id,
      },
      options.fields,
    ),
    links,
    controls: options.asItem ? [] : offered(ctx, copy, [receiveCopy, withdrawCopy, changeCopy]),
  };
}
