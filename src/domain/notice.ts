/**
 * @module Email notices to patrons: what they tell (a hold ready for pickup, a loan due soon, overdue or
 * declared lost, a charge), where each stands on its way out, and how long a sender waits before trying
 * again a notice the mail server could not take (docs/operations.md, "Notices by email").
 */

export const NOTICE_KINDS = ['hold_ready', 'due_soon', 'overdue', 'lost', 'charged'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * `pending` waits for a sender (or for its next attempt); `sending` is claimed by one, under a lease; `sent`
 * the mail server took it; `failed` it refused it for good (5xx); `skipped` it was never to be sent (the
 * patron has no email address).
 */
export const NOTICE_STATUSES = ['pending', 'sending', 'sent', 'failed', 'skipped'] as const;
export type NoticeStatus = (typeof NOTICE_STATUSES)[number];

/** Why a notice to a patron without an email address is skipped, as librarians read it. */
export const NO_EMAIL_ADDRESS = 'no email address';

/** What a user's document says to librarians of a patron without an email address. */
export const NO_EMAIL_NOTICES = 'none are sent: no email address';

/** A notice as librarians see it on a user. */
export interface Notice {
  id: number;
  user_id: number;
  kind: NoticeKind;
  status: NoticeStatus;
  hold_id: number | null;
  loan_id: number | null;
  account_entry_id: number | null;
  attempts: number;
  last_error: string | null;
  /** ISO 8601, UTC: business time of the event it tells of. */
  created_at: string;
  /** ISO 8601, UTC: when a pending notice may next be tried; `null` once it is sent, failed or skipped. */
  next_attempt_at: string | null;
  sent_at: string | null;
}

/** The first wait after an attempt the server did not take; each further one doubles it… */
export const RETRY_FIRST_MS = 60_000;
/** …up to this. */
export const RETRY_LONGEST_MS = 60 * 60_000;

/**
 * How long after its `attempts`-th failed attempt a notice is tried again: one minute, doubling, at most an
 * hour. The mail server that is down for a day is tried hourly, and nothing is dropped.
 */
export function retryDelay(attempts: number, first = RETRY_FIRST_MS, longest = RETRY_LONGEST_MS): number {
  const doublings = Math.min(Math.max(attempts - 1, 0), 30);
  return Math.min(first * 2 ** doublings, longest);
}
