/**
 * @module The notices outbox (`notices`): the sweep that queues due soon and overdue notices, the senders'
 * claim and their marks, what a notice's message is made of, and a user's notices as librarians list them.
 * Every step is one statement whose conditions the database checks, so two senders, or two sweeps, never
 * both take one notice (docs/operations.md, "Notices by email").
 */
import { type SQL, sql } from 'drizzle-orm';
import { NO_EMAIL_ADDRESS, type Notice, type NoticeKind } from '../../domain/notice.js';
import { type Db, rowsOf } from '../client.js';
import { businessTime } from './sql.js';

/** Days before the due date a loan's `due_soon` notice is queued; how long past due an `overdue` one still is. */
export interface DueNoticeParams {
  /** Business time. */
  at: Date;
  /** Loans due within this many days get a `due_soon` notice (a loan lent for no longer gets none). */
  dueDays: number;
}

/**
 * A loan overdue for longer than this when a sweep first sees it (the service stopped that long) gets no
 * `overdue` notice: each sweep reads only the loans that fell due in this window, not every loan ever late.
 */
export const OVERDUE_NOTICE_WINDOW_DAYS = 30;

const status = sql.raw(`case when u.email is null then 'skipped' else 'pending' end`);
const skippedBecause = sql.raw(`case when u.email is null then '${NO_EMAIL_ADDRESS}' end`);

/** Inserts one notice of `kind` for each active loan `where` says, and answers how many were new. */
async function queueLoanNotices(db: Db, kind: NoticeKind, at: Date, where: SQL): Promise<number> {
  const now = businessTime(at);
  const [row] = rowsOf<{ queued: number }>(
    await db.execute(sql`with queued as (
      insert into notices (user_id, kind, loan_id, dedupe_key, status, last_error, next_attempt_at, created_at)
      select l.borrower_id, ${kind}, l.id, notice_key(${kind}, l.id, l.due_at), ${status}, ${skippedBecause},
        ${now}, ${now}
      from loans l join users u on u.id = l.borrower_id
      where l.returned_at is null and l.lost_at is null and ${where}
      order by l.id
      on conflict (dedupe_key) do nothing
      returning 1
    ) select count(*)::int as queued from queued`),
  );
  return Number(row?.queued ?? 0);
}

/**
 * Queues the `due_soon` notices of loans due within `dueDays` and the `overdue` notices of loans past due
 * at `at`; each loan's for its due date once (`notice_key` of the loan and `due_at`: a renewal, moving the
 * date, makes new ones due). Running it again, or in two processes at once, queues nothing more.
 */
export async function queueDueNotices(db: Db, params: DueNoticeParams): Promise<{ dueSoon: number; overdue: number }> {
  const at = businessTime(params.at);
  const days = sql`make_interval(days => ${params.dueDays})`;
  // A loan lent for no longer than the notice's days gets none: its borrower was told the due date at the desk.
  const dueSoon = await queueLoanNotices(
    db,
    'due_soon',
    params.at,
    sql`l.due_at > ${at} and l.due_at <= ${at} + ${days} and l.due_at - ${days} >= l.borrowed_at`,
  );
  const overdue = await queueLoanNotices(
    db,
    'overdue',
    params.at,
    sql`l.due_at <= ${at} and l.due_at > ${at} - make_interval(days => ${OVERDUE_NOTICE_WINDOW_DAYS})`,
  );
  return { dueSoon, overdue };
}

/** A notice a sender claimed: what its message says, and the lease under which it sends it. */
export interface ClaimedNotice {
  id: number;
  kind: NoticeKind;
  /** Times claimed, this one included. */
  attempts: number;
  /** ISO 8601: the end of this claim's lease, which every mark of it names. */
  lease: string;
  /** ISO 8601: business time of the event. */
  created_at: string;
  user_name: string;
  /** `null`: the address was taken off the user since it was queued. */
  email: string | null;
  language: string | null;
  book_title: string | null;
  /** Of a hold ready for pickup. */
  pickup_branch: string | null;
  ready_until: string | null;
  /** Of a loan due soon, overdue or lost. */
  due_at: string | null;
  /** Of a charge (or a lost item's): minor units of `currency`. */
  amount: number | null;
  currency: string | null;
  reason: string | null;
  /** Of a lost item charged: the loan's overdue fine charged with it (minor units of `currency`), if any. */
  fine: number | null;
  /** Of a loan: it was returned since the notice was queued (a lost one charged is still told its charges). */
  returned: boolean;
  /** Why it is no longer to be sent: what it tells is no longer so (the hold was collected, the loan returned). */
  outdated: string | null;
}

const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * Claims up to `limit` notices due at `at` — pending ones whose time has come, and those whose sender's
 * lease ran out (it stopped mid-send) — oldest first, skipping rows another sender is claiming, and answers
 * them with what their messages say. One UPDATE: each notice is `sending` under a lease ending `leaseMs`
 * from `at`, with one more attempt, for one sender only.
 */
export async function claimNotices(
  db: Db,
  params: { at: Date; leaseMs: number; limit: number },
): Promise<ClaimedNotice[]> {
  const lease = new Date(params.at.getTime() + params.leaseMs);
  return rowsOf<ClaimedNotice>(
    await db.execute(sql`with claimed as (
      update notices set status = 'sending', attempts = attempts + 1, next_attempt_at = ${businessTime(lease)}
      where id in (
        select id from notices
        where status in ('pending', 'sending') and next_attempt_at <= ${businessTime(params.at)}
        order by next_attempt_at
        limit ${params.limit}
        for update skip locked
      )
      returning id, kind, attempts, next_attempt_at, created_at, user_id, hold_id, loan_id, account_entry_id, dedupe_key
    )
    select n.id, n.kind, n.attempts, ${iso('n.next_attempt_at')} as lease, ${iso('n.created_at')} as created_at,
      u.name as user_name, u.email, u.language, b.title as book_title, pb.name as pickup_branch,
      ${iso('h.ready_until')} as ready_until, ${iso('l.due_at')} as due_at,
      e.amount, e.currency, e.reason, fine.amount as fine, l.returned_at is not null as returned,
      case
        when n.kind = 'hold_ready' and (h.status <> 'ready' or n.dedupe_key <> notice_key(n.kind, h.id, h.ready_at))
          then 'no longer so: the hold is ' || h.status
        -- A lost loan's return changes no charge: a lost notice naming its charges still tells them.
        when n.kind <> 'charged' and l.returned_at is not null and not (n.kind = 'lost' and e.id is not null)
          then 'no longer so: the loan was returned'
        when n.kind in ('due_soon', 'overdue') and l.lost_at is not null then 'no longer so: the loan was declared lost'
        when n.kind in ('due_soon', 'overdue') and n.dedupe_key <> notice_key(n.kind, l.id, l.due_at)
          then 'no longer so: the loan was renewed'
        when n.kind = 'due_soon' and l.due_at <= ${businessTime(params.at)} then 'no longer so: the loan is overdue'
      end as outdated
    from claimed n
      join users u on u.id = n.user_id
      left join holds h on h.id = n.hold_id
      left join branches pb on pb.id = h.pickup_branch_id
      left join loans l on l.id = n.loan_id
      left join account_entries e on e.id = n.account_entry_id
      left join account_entries fine on n.kind = 'lost' and n.account_entry_id is not null
        and fine.loan_id = n.loan_id and fine.kind = 'overdue_fine'
      left join loans el on el.id = e.loan_id
      left join books b on b.id = coalesce(h.book_id, l.book_id, el.book_id)
    order by n.id`),
  );
}

/** The end of a claim: one notice, as long as the claim is still this sender's (its lease unchanged). */
interface Claim {
  id: number;
  lease: string;
}

async function markClaimed(db: Db, claim: Claim, set: SQL): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`update notices set ${set}
      where id = ${claim.id} and status = 'sending' and next_attempt_at = ${claim.lease}::timestamptz
      returning id`),
  );
  return rows.length === 1;
}

/** The mail server took it. */
export function markNoticeSent(db: Db, claim: Claim, at: Date): Promise<boolean> {
  return markClaimed(db, claim, sql`status = 'sent', sent_at = ${businessTime(at)}, last_error = null`);
}

/** Not taken this time (server down, 4xx): pending again, to be tried at `next`. */
export function markNoticeRetry(db: Db, claim: Claim, next: Date, error: string): Promise<boolean> {
  return markClaimed(
    db,
    claim,
    sql`status = 'pending', next_attempt_at = ${businessTime(next)}, last_error = ${bounded(error)}`,
  );
}

/** Refused for good (5xx), or never to be sent (no address): librarians see why on the user. */
export function markNoticeFailed(db: Db, claim: Claim, outcome: 'failed' | 'skipped', error: string): Promise<boolean> {
  return markClaimed(db, claim, sql`status = ${outcome}, last_error = ${bounded(error)}`);
}

/** What a server answered, within the column's bound. */
function bounded(error: string): string {
  return [...error].slice(0, 1000).join('');
}

/** A page of a user's notices, newest first. */
export async function listUserNotices(
  db: Db,
  params: { userId: number; before?: number | undefined; limit: number },
): Promise<{ notices: Notice[]; more: boolean }> {
  const rows = rowsOf<Notice>(
    await db.execute(sql`select id, user_id, kind, status, hold_id, loan_id, account_entry_id, attempts, last_error,
      ${iso('created_at')} as created_at,
      case when status = 'pending' then ${iso('next_attempt_at')} end as next_attempt_at,
      ${iso('sent_at')} as sent_at
    from notices
    where user_id = ${params.userId} ${params.before === undefined ? sql`` : sql`and id < ${params.before}`}
    order by id desc
    limit ${params.limit + 1}`),
  );
  return { notices: rows.slice(0, params.limit), more: rows.length > params.limit };
}
