/**
 * @module The notice that a loan long overdue was declared lost, with what the lost item was charged and the
 * overdue fine charged with it (which has no notice of its own). A loan returned before its notice is sent
 * still owes them, so the notice still goes, without asking for the book back.
 */
import { html, type NoticeTemplate, page, plain } from './template.js';

export const lost: NoticeTemplate = {
  en: (f) => {
    const fine = f.fine === null ? '' : `, and ${f.fine} in overdue fines`;
    const charged =
      f.amount === null ? 'Nothing was charged for it.' : `Your account was charged ${f.amount} for it${fine}.`;
    const last = f.returned ? 'It has since been returned; the charges stand.' : 'If you find it, please return it.';
    return {
      subject: `Declared lost: ${f.title}`,
      text: plain(f, [
        `Dear ${f.patron},`,
        `"${f.title}", due back on ${f.dueDate}, has been declared lost. ${charged}`,
        last,
      ]),
      html: page('en', f, [
        html`Dear ${f.patron},`,
        html`<cite>${f.title}</cite>, due back on ${f.dueDate}, has been declared lost. ${charged}`,
        html`${last}`,
      ]),
    };
  },
  fr: (f) => {
    const fine = f.fine === null ? '' : `, ainsi que ${f.fine} de pénalités de retard`;
    const charged =
      f.amount === null
        ? 'Rien ne vous a été facturé.'
        : `Une somme de ${f.amount} a été portée à votre compte${fine}.`;
    const last = f.returned
      ? 'Il a depuis été rapporté ; les sommes restent dues.'
      : 'Si vous le retrouvez, merci de le rapporter.';
    return {
      subject: `Déclaré perdu : ${f.title}`,
      text: plain(f, [
        `Bonjour ${f.patron},`,
        `« ${f.title} », à rendre le ${f.dueDate}, a été déclaré perdu. ${charged}`,
        last,
      ]),
      html: page('fr', f, [
        html`Bonjour ${f.patron},`,
        html`<cite>${f.title}</cite>, à rendre le ${f.dueDate}, a été déclaré perdu. ${charged}`,
        html`${last}`,
      ]),
    };
  },
};
