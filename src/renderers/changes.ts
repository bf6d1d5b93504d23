/**
 * @module Renders the change feed: each event with a link to what it is about (a deleted book or author
 * still names the URI it had), and a page of events with the way on (`next`, always present: from the
 * last page it is where to resume), where the feed begins, and `last`: from now on.
 */

import type { RenderContext } from '../affordances/context.js';
import {
  type Change,
  type ChangeKind,
  changeKind,
  DEFAULT_CHANGES_PER_PAGE,
  type FeedHorizon,
  type FeedStart,
} from '../domain/change.js';
import type { Link, Resource } from '../hypermedia/model.js';
import type { ChangesParams, Uris } from '../hypermedia/uris.js';

const hrefOf: Record<ChangeKind, (uris: Uris, id: number) => string> = {
  book: (uris, id) => uris.book(id),
  author: (uris, id) => uris.author(id),
  loan: (uris, id) => uris.loan(id),
  copy: (uris, id) => uris.copy(id),
  hold: (uris, id) => uris.hold(id),
  branch: (uris, id) => uris.branch(id),
};

/** One event, as a page's member and as an event stream's `data:`. */
export function renderChange(change: Change, ctx: RenderContext): Resource {
  const { uris } = ctx;
  const kind = changeKind(change.type);
  const href = hrefOf[kind](uris, change.resource_id);
  return {
    kind: 'change',
    state: { id: change.id, type: change.type, at: change.at },
    links: [{ rel: kind, href }],
    controls: [],
  };
}

export interface ChangesPageFacts {
  /** The cursor the page was asked with, if any. */
  cursor: string | undefined;
  /** Where it started without a cursor. */
  from: FeedStart;
  perPage: number;
  /** The cursor after the page's last event (the one asked with when the page is empty). */
  next: string;
  horizon: FeedHorizon;
  /** Days events are kept (`CATALOGUE_CHANGES_RETENTION_DAYS`). */
  retentionDays: number;
}

export function renderChangesPage(items: Resource[], facts: ChangesPageFacts, ctx: RenderContext): Resource {
  const { uris } = ctx;
  const perPage = facts.perPage === DEFAULT_CHANGES_PER_PAGE ? {} : { per_page: facts.perPage };
  const at = (params: ChangesParams) => uris.changes({ ...params, ...perPage });
  const start: ChangesParams =
    facts.cursor !== undefined ? { cursor: facts.cursor } : facts.from === 'now' ? { from: 'now' } : {};
  const links: Link[] = [
    { rel: 'self', href: at(start) },
    { rel: 'first', href: at({}), title: 'The oldest events kept' },
    { rel: 'next', href: at({ cursor: facts.next }), title: 'Newer events (from the last page: where to resume)' },
    { rel: 'last', href: at({ from: 'now' }), title: 'From now on: only events that commit after it is read' },
  ];
  return {
    kind: 'change-page',
    state: {
      meta: {
        per_page: facts.perPage,
        begins_at: facts.horizon.beginsAt,
        retention_days: facts.retentionDays,
      },
    },
    links,
    controls: [],
    items,
  };
}
