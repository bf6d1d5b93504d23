/** @module The notice that a loan is due back in a few days (`CATALOGUE_NOTICE_DUE_DAYS`). */
import { html, type NoticeTemplate, page, plain } from './template.js';

export const dueSoon: NoticeTemplate = {
  en: (f) => ({
    subject: `Due back soon: ${f.title}`,
    text: plain(f, [
      `Dear ${f.patron},`,
      `"${f.title}" is due back on ${f.dueDate}.`,
      'You may return it at any branch, or renew it from your account if it can be renewed.',
    ]),
    html: page('en', f, [
      html`Dear ${f.patron},`,
      html`<cite>${f.title}</cite> is due back on <strong>${f.dueDate}</strong>.`,
      html`You may return it at any branch, or renew it from your account if it can be renewed.`,
    ]),
  }),
  fr: (f) => ({
    subject: `À rendre bientôt : ${f.title}`,
    text: plain(f, [
      `Bonjour ${f.patron},`,
      `« ${f.title} » est à rendre le ${f.dueDate}.`,
      'Vous pouvez le rendre dans toute bibliothèque du réseau, ou le prolonger depuis votre compte si c’est possible.',
    ]),
    html: page('fr', f, [
      html`Bonjour ${f.patron},`,
      html`<cite>${f.title}</cite> est à rendre le <strong>${f.dueDate}</strong>.`,
      html`Vous pouvez le rendre dans toute bibliothèque du réseau, ou le prolonger depuis votre compte si c’est possible.`,
    ]),
  }),
};
