/**
 * @module What every notice's template is: for each language it is written in, a function from the notice's
 * facts, already formatted for that language, to a subject, a plain-text body and an HTML body. The HTML is
 * built with `html`, which escapes every value put into it.
 */

/** The languages notices are written in; English is the one a patron of any other language gets. */
export const NOTICE_LANGUAGES = ['en', 'fr'] as const;
export type NoticeLanguage = (typeof NOTICE_LANGUAGES)[number];

/** A notice's facts as its reader reads them: names as stored, dates and amounts formatted in their language. */
export interface NoticeFacts {
  /** The library's name (`CATALOGUE_LIBRARY_NAME`): it signs every notice. */
  library: string;
  /** The patron's name. */
  patron: string;
  /** The title of the book it is about; `null` for a charge of no loan. */
  title: string | null;
  /** Where a ready hold is collected. */
  pickupBranch: string | null;
  /** The last day a ready hold's copy is kept. */
  readyUntil: string | null;
  /** A loan's due date. */
  dueDate: string | null;
  /** A charge (or a lost item's). */
  amount: string | null;
  /** A lost item's overdue fine, charged with it. */
  fine: string | null;
  /** Why a librarian charged it. */
  reason: string | null;
  /** The loan it is about was returned since (a lost one: its charges stand). */
  returned: boolean;
}

/** A message's three parts. */
export interface NoticeText {
  subject: string;
  text: string;
  html: string;
}

/** One notice's template, in every language. */
export type NoticeTemplate = Record<NoticeLanguage, (facts: NoticeFacts) => NoticeText>;

/** HTML with every interpolated value escaped: a patron's name or a title is text, never markup. */
export class Html {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/** A tagged template: `html\`<p>${name}</p>\`` escapes `name`; an `Html` value goes in as it is. */
export function html(strings: TemplateStringsArray, ...values: (string | Html | null)[]): Html {
  let markup = strings[0] ?? '';
  values.forEach((value, i) => {
    markup += (value instanceof Html ? value.markup : escapeHtml(value ?? '')) + (strings[i + 1] ?? '');
  });
  return new Html(markup);
}

/** The HTML body every notice shares: its paragraphs, signed with the library's name. */
export function page(language: NoticeLanguage, facts: NoticeFacts, paragraphs: Html[]): string {
  return html`<!DOCTYPE html>
<html lang="${language}">
<head><meta charset="utf-8"><title>${facts.library}</title></head>
<body>
${new Html(paragraphs.map((p) => `<p>${p.markup}</p>`).join('\n'))}
<p>${facts.library}</p>
</body>
</html>
`.markup;
}

/** The plain-text body: paragraphs a blank line apart, signed with the library's name. */
export function plain(facts: NoticeFacts, paragraphs: string[]): string {
  return `${[...paragraphs, facts.library].join('\n\n')}\n`;
}
