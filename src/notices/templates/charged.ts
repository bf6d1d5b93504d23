/** @module The notice of a charge on a patron's account: an overdue fine, or a librarian's charge with its reason. */
import { html, type NoticeTemplate, page, plain } from './template.js';

export const charged: NoticeTemplate = {
  en: (f) => {
    const what = f.title === null ? '' : ` for "${f.title}"`;
    const why = f.reason === null ? [] : [`Reason: ${f.reason}`];
    return {
      subject: `A charge on your account: ${f.amount}`,
      text: plain(f, [`Dear ${f.patron},`, `Your account was charged ${f.amount}${what}.`, ...why]),
      html: page('en', f, [
        html`Dear ${f.patron},`,
        f.title === null
          ? html`Your account was charged <strong>${f.amount}</strong>.`
          : html`Your account was charged <strong>${f.amount}</strong> for <cite>${f.title}</cite>.`,
        ...(f.reason === null ? [] : [html`Reason: ${f.reason}`]),
      ]),
    };
  },
  fr: (f) => {
    const what = f.title === null ? '' : ` pour « ${f.title} »`;
    const why = f.reason === null ? [] : [`Motif : ${f.reason}`];
    return {
      subject: `Une somme portée à votre compte : ${f.amount}`,
      text: plain(f, [`Bonjour ${f.patron},`, `Une somme de ${f.amount} a été portée à votre compte${what}.`, ...why]),
      html: page('fr', f, [
        html`Bonjour ${f.patron},`,
        f.title === null
          ? html`Une somme de <strong>${f.amount}</strong> a été portée à votre compte.`
          : html`Une somme de <strong>${f.amount}</strong> a été portée à votre compte pour <cite>${f.title}</cite>.`,
        ...(f.reason === null ? [] : [html`Motif : ${f.reason}`]),
      ]),
    };
  },
};
