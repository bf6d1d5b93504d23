/** @module Renders a copy: its barcode and where it is, its book, and `withdraw` while allowed. */
import { offered } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import { withdrawCopy } from '../affordances/copies.js';
import { type Copy, copyLabel } from '../domain/copy.js';
import type { Resource } from '../hypermedia/model.js';
import { firstPage } from '../hypermedia/uris.js';
import { pick } from './pick.js';

export function renderCopy(
  copy: Copy,
  ctx: RenderContext,
  options: { fields?: string[] | undefined; asItem?: boolean } = {},
): Resource {
  const { uris } = ctx;
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
      },
      options.fields,
    ),
    links: [
      { rel: 'self', href: uris.copy(copy.id) },
      { rel: 'book', href: uris.book(copy.book_id) },
      { rel: 'collection', href: uris.bookCopies(copy.book_id, firstPage) },
    ],
    controls: options.asItem ? [] : offered(ctx, copy, [withdrawCopy]),
  };
}
