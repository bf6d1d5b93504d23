/**
 * @module A claimed notice as the email nodemailer sends: its template in the patron's language, the dates
 * in the library's time zone, and headers built only by nodemailer from structured values (a name is an
 * address's display name, which it encodes; nothing is ever written into a header as text of ours).
 */
import type { SendMailOptions } from 'nodemailer';
import type { ClaimedNotice } from '../db/queries/notices.js';
import { formatMoney, money } from '../domain/money.js';
import { type NoticeFacts, type NoticeLanguage, noticeLanguage, templates } from './templates/index.js';

/** What every message shares. */
export interface MessageSettings {
  /** The library's name: the sender's display name, and every notice's signature. */
  libraryName: string;
  /** The sender's address. */
  from: string;
  /** The library's time zone, in which dates are written. */
  timeZone: string;
}

/** The locale a language's dates and amounts are written in. */
const LOCALES: Record<NoticeLanguage, string> = { en: 'en-GB', fr: 'fr-FR' };

/** The email of a notice to the address it was claimed with. */
export function noticeMessage(notice: ClaimedNotice & { email: string }, settings: MessageSettings): SendMailOptions {
  const language = noticeLanguage(notice.language);
  const locale = LOCALES[language];
  const day = (iso: string | null) =>
    iso === null
      ? null
      : new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: settings.timeZone }).format(new Date(iso));
  const formatted = (minor: number | null) =>
    minor === null || notice.currency === null ? null : formatMoney(money(minor, notice.currency), locale);
  const facts: NoticeFacts = {
    library: settings.libraryName,
    patron: notice.user_name,
    title: notice.book_title,
    pickupBranch: notice.pickup_branch,
    readyUntil: day(notice.ready_until),
    dueDate: day(notice.due_at),
    amount: formatted(notice.amount),
    fine: formatted(notice.fine),
    reason: notice.reason,
    returned: notice.returned,
  };
  const { subject, text, html } = templates[notice.kind][language](facts);
  return {
    from: { name: settings.libraryName, address: settings.from },
    to: { name: notice.user_name, address: notice.email },
    subject,
    text,
    html,
    messageId: messageIdOf(notice, settings.from),
    headers: {
      // RFC 3834: written by the catalogue, not a person; auto-responders stay silent.
      'Auto-Submitted': 'auto-generated',
      'Content-Language': language,
    },
  };
}

/**
 * The notice's Message-ID, the same at every attempt: a copy sent again after a crash mid-send is one
 * message to the patron's mail system, which may recognise it. The event's time keeps it apart from a
 * notice of the same id in another database.
 */
export function messageIdOf(notice: Pick<ClaimedNotice, 'id' | 'created_at'>, from: string): string {
  const domain = from.slice(from.lastIndexOf('@') + 1);
  const at = notice.created_at.replace(/\D/g, '');
  return `<notice-${notice.id}.${at}@${domain}>`;
}
