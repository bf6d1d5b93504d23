/** @module The notice that a loan is past its due date. */
import { html, type NoticeTemplate, page, plain } from './template.js';

export const overdue: NoticeTemplate = {
  en: (f) => ({
    subject: `Overdue: ${f.title}`,
    text: plain(f, [
      `Dear ${f.patron},`,
      `"${f.title}" was due back on ${f.dueDate}. Please return it as soon as you can: fines may apply.`,
    ]),
    html: page('en', f, [
      html`Dear ${f.patron},`,
      html`<cite>${f.title}</cite> was due back on <strong>${f.dueDate}</strong>. Please return it as soon as you can: fines may apply.`,
    ]),
  }),
  fr: (f) => ({
    subject: `En retard : ${f.title}`,
    text: plain(f, [
      `Bonjour ${f.patron},`,
      `« ${f.title} » était à rendre le ${f.dueDate}. Merci de le rapporter au plus vite : des pénalités peuvent s’appliquer.`,
    ]),
    html: page('fr', f, [
      html`Bonjour ${f.patron},`,
      html`<cite>${f.title}</cite> était à rendre le <strong>${f.dueDate}</strong>. Merci de le rapporter au plus vite : des pénalités peuvent s’appliquer.`,
    ]),
  }),
};
