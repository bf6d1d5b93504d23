/**
 * @module The sender: claims a batch of due notices (one UPDATE; the database hands each to one sender),
 * sends each over the transport, and marks it sent, to be retried with backoff, failed, or skipped. A
 * notice is marked only while its claim's lease is unchanged, so a sender that outlived its lease never
 * overwrites what another did.
 */

import type { Db } from '../db/client.js';
import {
  type ClaimedNotice,
  claimNotices,
  markNoticeFailed,
  markNoticeRetry,
  markNoticeSent,
} from '../db/queries/notices.js';
import type { Clock } from '../domain/clock.js';
import { NO_EMAIL_ADDRESS, retryDelay } from '../domain/notice.js';
import { type MessageSettings, noticeMessage } from './message.js';
import { type NoticeTransport, sendFailure } from './transport.js';

export interface SenderSettings extends MessageSettings {
  clock: Clock;
  /** Notices claimed at once; they are sent side by side over the transport's pool. */
  batchSize?: number;
  /** How long a claim holds a notice before another sender may take it (its sender stopped mid-send). */
  leaseMs?: number;
  /** The first wait before a notice the server did not take is tried again; doubled each time… */
  retryFirstMs?: number;
  /** …up to this. */
  retryLongestMs?: number;
}

export const NOTICE_BATCH_SIZE = 100;
/** Far beyond the transport's timeouts (`SMTP_TIMEOUTS`): a lease runs out only when its sender has stopped. */
export const NOTICE_LEASE_MS = 10 * 60_000;

/** What one round did with the notices it claimed. */
export interface SendRound {
  claimed: number;
  sent: number;
  retried: number;
  failed: number;
  skipped: number;
  /** Marks refused because the claim was no longer this sender's (its lease had run out). */
  lostClaims: number;
}

/** Claims one batch of due notices and sends them; answers what became of them. */
export async function sendDueNotices(db: Db, transport: NoticeTransport, settings: SenderSettings): Promise<SendRound> {
  const claimed = await claimNotices(db, {
    at: settings.clock.now(),
    leaseMs: settings.leaseMs ?? NOTICE_LEASE_MS,
    limit: settings.batchSize ?? NOTICE_BATCH_SIZE,
  });
  const round: SendRound = { claimed: claimed.length, sent: 0, retried: 0, failed: 0, skipped: 0, lostClaims: 0 };
  const settle = (kept: boolean, outcome: 'sent' | 'retried' | 'failed' | 'skipped') => {
    if (kept) round[outcome]++;
    else round.lostClaims++;
  };
  await Promise.all(
    claimed.map(async (notice) => {
      const outdated = notice.outdated;
      if (notice.email === null || outdated !== null) {
        const why = outdated ?? NO_EMAIL_ADDRESS;
        settle(await markNoticeFailed(db, notice, 'skipped', why), 'skipped');
        return;
      }
      const outcome = await send(transport, { ...notice, email: notice.email }, settings);
      const at = settings.clock.now();
      if (outcome === undefined) {
        settle(await markNoticeSent(db, notice, at), 'sent');
      } else if (outcome.outcome === 'failed') {
        settle(await markNoticeFailed(db, notice, 'failed', outcome.error), 'failed');
      } else {
        const next = new Date(
          at.getTime() + retryDelay(notice.attempts, settings.retryFirstMs, settings.retryLongestMs),
        );
        settle(await markNoticeRetry(db, notice, next, outcome.error), 'retried');
      }
    }),
  );
  return round;
}

/** Sends one notice's message; `undefined` when the server took it. */
async function send(
  transport: NoticeTransport,
  notice: ClaimedNotice & { email: string },
  settings: MessageSettings,
): Promise<ReturnType<typeof sendFailure> | undefined> {
  try {
    await transport.sendMail(noticeMessage(notice, settings));
    return undefined;
  } catch (error) {
    return sendFailure(error);
  }
}
