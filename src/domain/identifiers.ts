/**
 * @module The identifiers a book record carries, read as a person types them and stored in one form: ISBNs
 * (isbn3: check digits and the registered ranges) as ISBN-13, languages (the ISO 639-2 list) as ISO 639-2/B.
 */
import ISBN from 'isbn3';
import { iso6392 } from 'iso-639-2';

/** An ISBN as it is stored and answered: ISBN-13, digits only. */
export type Isbn13 = string;

/** Only what an ISBN is written with: digits, a final X of an ISBN-10, hyphens and spaces between them. */
const ISBN_TEXT = /^[0-9][0-9 -]{8,15}[0-9Xx]$/;

/**
 * The ISBN-13 of an ISBN-10 or ISBN-13 written with or without hyphens or spaces, or `undefined` when it is
 * none: a wrong check digit, a wrong length, or a number outside the ranges the ISBN agency has assigned.
 */
export function isbn13Of(text: string): Isbn13 | undefined {
  const trimmed = text.trim();
  if (!ISBN_TEXT.test(trimmed)) return undefined;
  const digits = trimmed.replace(/[ -]/g, '');
  if (digits.length !== 10 && digits.length !== 13) return undefined;
  return ISBN.parse(digits)?.isbn13 ?? undefined;
}

/** Why a text is not an ISBN, in words a person can act on. */
function isbnProblem(text: string): string {
  const digits = text.trim().replace(/[ -]/g, '');
  if (!/^([0-9]{9}[0-9Xx]|[0-9]{13})$/.test(digits)) {
    return 'must be an ISBN: 10 or 13 digits (an ISBN-10 may end in X), hyphens and spaces allowed';
  }
  return 'is not a valid ISBN: its check digit is wrong, or its number is outside the assigned ranges';
}

/** ISO 639-2/B code → the language's English name; every 639-1 and 639-2/T code → its 639-2/B code. */
const names = new Map<string, string>();
const bibliographic = new Map<string, string>();
/** ISO 639-2/B code → ISO 639-1 code, where the language has one. */
const twoLetter = new Map<string, string>();
for (const language of iso6392) {
  // The list's reserved range (qaa-qtz, "local use") is no language a record can name.
  if (language.iso6392B.includes('-')) continue;
  // The list's first name where it gives several ("Spanish; Castilian"): the one people use.
  names.set(language.iso6392B, language.name.split(';')[0] as string);
  bibliographic.set(language.iso6392B, language.iso6392B);
  if (language.iso6392T) bibliographic.set(language.iso6392T, language.iso6392B);
  if (language.iso6391) bibliographic.set(language.iso6391, language.iso6392B);
  if (language.iso6391) twoLetter.set(language.iso6392B, language.iso6391);
}

/**
 * The ISO 639-2/B code of a language given by its ISO 639-1 (`de`), 639-2/B (`ger`) or 639-2/T (`deu`)
 * code, in any case; `undefined` when it names none. 639-2/B is what MARC 21 records carry (field 041 and
 * the 008 language), and it names the languages libraries hold that 639-1 has no code for (`grc`, `ang`).
 */
export function languageCodeOf(text: string): string | undefined {
  return bibliographic.get(text.trim().toLowerCase());
}

/** The English name of an ISO 639-2/B code (`ger` → German), or `undefined`. */
export function languageName(code: string): string | undefined {
  return names.get(code);
}

/**
 * A stored language (ISO 639-2/B) as a BCP 47 language tag, as the web names languages (schema.org's
 * `inLanguage`, HTML's `lang`): its ISO 639-1 code where it has one (`ger` → `de`), else its three letters,
 * which for a language without a two-letter code are the same in 639-2/B and BCP 47 (`grc`).
 */
export function languageTag(code: string): string {
  return twoLetter.get(code) ?? code;
}

/** How a field of an identifier format is read: its one stored form, why a text is none, its shape for OpenAPI. */
interface IdentifierFormat {
  canonical(text: string): string | undefined;
  problem(text: string): string;
  /** JSON Schema's `format` and `pattern` for it. */
  schema: { format: string; pattern: string };
}

/** The identifier formats a string field may take (`InputField.format`), read the same wherever they are sent. */
export const identifierFormats = {
  isbn: { canonical: isbn13Of, problem: isbnProblem, schema: { format: 'isbn', pattern: ISBN_TEXT.source } },
  language: {
    canonical: languageCodeOf,
    problem: () => 'must be an ISO 639 language code: two letters (ISO 639-1, as en) or three (ISO 639-2, as eng)',
    schema: { format: 'iso639', pattern: '^[A-Za-z]{2,3}$' },
  },
} as const satisfies Record<string, IdentifierFormat>;

/**
 * OAI-PMH's repositoryIdentifier (the oai-identifier scheme): a domain name, its dots optional here. Kept
 * in the domain because configuration checks `CATALOGUE_OAI_REPOSITORY_ID` with it, and configuration may
 * not reach into the OAI-PMH protocol (whose HTTP adapter depends on configuration).
 */
export function isRepositoryId(text: string): boolean {
  return /^[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z][A-Za-z0-9-]*)*$/.test(text);
}
