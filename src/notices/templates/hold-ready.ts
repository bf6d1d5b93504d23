/** @module The notice that a hold's copy is set aside at its pickup branch. */
import { html, type NoticeTemplate, page, plain } from './template.js';

export const holdReady: NoticeTemplate = {
  en: (f) => ({
    subject: `Ready for pickup: ${f.title}`,
    text: plain(f, [
      `Dear ${f.patron},`,
      `"${f.title}", which you reserved, is waiting for you at ${f.pickupBranch}.`,
      `It is kept for you until ${f.readyUntil}.`,
    ]),
    html: page('en', f, [
      html`Dear ${f.patron},`,
      html`<cite>${f.title}</cite>, which you reserved, is waiting for you at <strong>${f.pickupBranch}</strong>.`,
      html`It is kept for you until ${f.readyUntil}.`,
    ]),
  }),
  fr: (f) => ({
    subject: `Disponible : ${f.title}`,
    text: plain(f, [
      `Bonjour ${f.patron},`,
      `« ${f.title} », que vous avez réservé, vous attend à ${f.pickupBranch}.`,
      `Il vous est gardé jusqu’au ${f.readyUntil}.`,
    ]),
    html: page('fr', f, [
      html`Bonjour ${f.patron},`,
      html`<cite>${f.title}</cite>, que vous avez réservé, vous attend à <strong>${f.pickupBranch}</strong>.`,
      html`Il vous est gardé jusqu’au ${f.readyUntil}.`,
    ]),
  }),
};
