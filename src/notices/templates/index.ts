/**
 * @module Every notice's template, by kind: one file each in this folder, plain text and HTML, in English
 * and French. A patron whose language (`users.language`, BCP 47) is one of them reads it; anyone else
 * reads English.
 */
import type { NoticeKind } from '../../domain/notice.js';
import { charged } from './charged.js';
import { dueSoon } from './due-soon.js';
import { holdReady } from './hold-ready.js';
import { lost } from './lost.js';
import { overdue } from './overdue.js';
import { NOTICE_LANGUAGES, type NoticeLanguage, type NoticeTemplate } from './template.js';

export type { NoticeFacts, NoticeLanguage, NoticeText } from './template.js';

export const templates: Record<NoticeKind, NoticeTemplate> = {
  hold_ready: holdReady,
  due_soon: dueSoon,
  overdue,
  lost,
  charged,
};

/** The language a notice is written in for a patron whose language tag is `tag`: its primary language, or English. */
export function noticeLanguage(tag: string | null): NoticeLanguage {
  const primary = tag?.split('-')[0]?.toLowerCase();
  return NOTICE_LANGUAGES.find((language) => language === primary) ?? 'en';
}
