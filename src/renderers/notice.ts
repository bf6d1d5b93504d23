/**
 * @module Renders the notices to a user as librarians read them: each one's kind, where it stands, how many
 * times it was tried and what the mail server last said, with links to what it is about.
 */
import type { RenderContext } from '../affordances/context.js';
import type { Notice } from '../domain/notice.js';
import type { Link, Resource } from '../hypermedia/model.js';

/** A page of a user's notices, newest first, and the cursor of the next (older) page when there is one. */
export function renderNotices(
  userId: number,
  page: { notices: Notice[]; next: string | undefined },
  ctx: RenderContext,
): Resource {
  const { uris } = ctx;
  const links: Link[] = [
    { rel: 'self', href: uris.userNotices(userId) },
    { rel: 'up', href: uris.user(userId), title: 'The notices\u2019 user' },
  ];
  if (page.next !== undefined)
    links.push({ rel: 'next', href: uris.userNotices(userId, page.next), title: 'Older notices' });
  return {
    kind: 'notices',
    state: { user_id: userId },
    links,
    controls: [],
    items: page.notices.map((notice) => renderNotice(notice, ctx)),
  };
}

function renderNotice(notice: Notice, ctx: RenderContext): Resource {
  const { uris } = ctx;
  const links: Link[] = [];
  if (notice.hold_id !== null) links.push({ rel: 'hold', href: uris.hold(notice.hold_id) });
  if (notice.loan_id !== null) links.push({ rel: 'loan', href: uris.loan(notice.loan_id) });
  if (notice.account_entry_id !== null) {
    links.push({ rel: 'charge', href: uris.accountEntry(notice.user_id, notice.account_entry_id) });
  }
  return {
    kind: 'notice',
    state: {
      id: notice.id,
      kind: notice.kind,
      status: notice.status,
      attempts: notice.attempts,
      last_error: notice.last_error,
      created_at: notice.created_at,
      next_attempt_at: notice.next_attempt_at,
      sent_at: notice.sent_at,
    },
    links,
    controls: [],
  };
}
