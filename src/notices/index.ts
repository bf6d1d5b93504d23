/**
 * @module Notices by email, in the background of a server process: a sender that claims and sends due
 * notices until there are none, then looks again every few seconds; and the hourly sweep that queues due
 * soon and overdue notices by the app's clock (business time). Several processes may run both against one
 * database: the claim gives each notice to one sender, and the sweep's inserts are idempotent
 * (docs/operations.md, "Notices by email").
 */

import type { Database } from '../db/client.js';
import { queueDueNotices } from '../db/queries/notices.js';
import type { Logger } from '../log.js';
import { sweepPeriodically } from '../sweep.js';
import { NOTICE_BATCH_SIZE, type SenderSettings, sendDueNotices } from './sender.js';
import { type NoticeTransport, smtpTransport } from './transport.js';

export { type SenderSettings, type SendRound, sendDueNotices } from './sender.js';
export { type NoticeTransport, smtpTransport } from './transport.js';

/** How long an idle sender waits before it looks for due notices again. */
export const NOTICE_IDLE_MS = 5_000;
/** How often the sweep queues due soon and overdue notices: a loan's is queued within this of its time. */
export const QUEUE_DUE_NOTICES_EVERY_MS = 60 * 60 * 1000;

export interface NoticeLoopSettings extends SenderSettings {
  /** Wait between looks while nothing is due. */
  idleMs?: number;
}

/**
 * Starts a sender over `transport`; answers a function that stops it, settling once the round under way
 * has marked its notices (so none is left `sending` by a clean stop).
 */
export function sendNoticesPeriodically(
  database: Database,
  transport: NoticeTransport,
  settings: NoticeLoopSettings,
  log: Logger,
): () => Promise<void> {
  let stopped = false;
  let wake: (() => void) | undefined;
  const idle = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, settings.idleMs ?? NOTICE_IDLE_MS);
      // Like the other sweeps', the wait alone keeps no process alive.
      timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  const loop = (async () => {
    while (!stopped) {
      let full = false;
      try {
        const round = await sendDueNotices(database.db, transport, settings);
        full = round.claimed >= (settings.batchSize ?? NOTICE_BATCH_SIZE);
        if (round.claimed > 0) log.info('notices', { ...round });
      } catch (error) {
        log.error('sending notices failed', { code: (error as { code?: string }).code });
      }
      if (!full && !stopped) await idle();
    }
  })();
  return async () => {
    stopped = true;
    wake?.();
    await loop;
  };
}

/** Starts the sweep that queues due soon and overdue notices: at start, then hourly. Answers its stop. */
export function queueDueNoticesPeriodically(
  database: Database,
  settings: Pick<SenderSettings, 'clock'> & { dueDays: number },
  log: Logger,
): () => void {
  return sweepPeriodically(
    {
      every: QUEUE_DUE_NOTICES_EVERY_MS,
      run: () => queueDueNotices(database.db, { at: settings.clock.now(), dueDays: settings.dueDays }),
      describe: {
        doing: 'queueing notices',
        done: (queued) =>
          queued.dueSoon + queued.overdue > 0 ? { message: 'notices queued', fields: { ...queued } } : undefined,
      },
    },
    log,
  );
}

/**
 * Notices in a server process, when `smtpUrl` names a server: the sweep and one sender over a pooled
 * transport. Answers the stop, which ends both and closes the transport's connections.
 */
export function startNotices(
  database: Database,
  settings: Omit<NoticeLoopSettings, 'clock'> & Pick<SenderSettings, 'clock'> & { smtpUrl: string; dueDays: number },
  log: Logger,
): () => Promise<void> {
  const transport = smtpTransport(settings.smtpUrl);
  const stopSweep = queueDueNoticesPeriodically(database, settings, log);
  const stopSending = sendNoticesPeriodically(database, transport, settings, log);
  return async () => {
    stopSweep();
    await stopSending();
    transport.close();
  };
}
