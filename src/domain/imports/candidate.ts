/**
 * @module What one imported record proposes, and the checks it must pass before it may land: the same
 * fields and rules as the `create` control's (`bookInputFields`), an author named instead of numbered.
 */
import { authorInputFields } from '../author.js';
import { bookInputFields } from '../book.js';
import { InvalidInput } from '../errors.js';
import { checkValue, type InputField, validateInput } from '../input.js';
import { idOf, SUBJECTS_MAX } from '../limits.js';

/** Where a record came from: the MARC organization code of its source (003) and its number there (001). */
export interface RecordKey {
  source: string;
  controlNumber: string;
}

/** A record read from a file, its fields as the file gives them (text, not yet checked). */
export interface ImportedRecord {
  title?: string | undefined;
  /** The year of publication, digits (a MARC date's year already taken out of `c1937.` or `[1937]`). */
  year?: string | undefined;
  /** The author's name, as people write it (MARC's inverted form already turned round). */
  authorName?: string | undefined;
  /** An existing author's id (a CSV's `author_id`), instead of a name. */
  authorId?: string | undefined;
  isbn?: string | undefined;
  language?: string | undefined;
  subjects?: string[] | undefined;
  publisher?: string | undefined;
  key?: RecordKey | undefined;
}

/** A record that passed the checks: what the database is asked to write. */
export interface ImportCandidate {
  title: string;
  publication_year: number;
  author: { id: number } | { name: string };
  isbn: string | null;
  language: string | null;
  subjects: string[];
  publisher: string | null;
  key: RecordKey | null;
}

/** Why a record is refused: one sentence a librarian can act on. */
export type Refusal = { reason: string };

/** Longest control number and source code kept: MARC's are short, the bound keeps the index small. */
export const RECORD_KEY_MAX_LENGTH = 100;

/** A control number and its source are text as any field is: no NUL, well-formed, bounded. */
const RECORD_KEY_PART: InputField = { name: 'key', type: 'string', required: true, maxLength: RECORD_KEY_MAX_LENGTH };

/** The record as a candidate, or why it is refused: missing fields first, then the create control's rules. */
export function checkRecord(record: ImportedRecord): ImportCandidate | Refusal {
  const title = record.title?.trim();
  if (!title) return { reason: 'no title (MARC 245 $a)' };
  const year = record.year?.trim();
  if (!year) return { reason: 'no year of publication (MARC 264 $c, 260 $c or 008/07-10)' };
  if (!/^-?\d{1,5}$/.test(year)) return { reason: `bad year: "${year}" is not a year` };
  const author = authorOf(record);
  if ('reason' in author) return author;
  if (record.key) {
    const problem =
      checkValue(RECORD_KEY_PART, record.key.controlNumber) ?? checkValue(RECORD_KEY_PART, record.key.source);
    if (problem) return { reason: `bad control number (MARC 001) or its source (003): ${problem}` };
  }
  try {
    const input = validateInput(
      { fields: bookInputFields, mode: 'create' },
      {
        title,
        publication_year: Number(year),
        author_id: 1,
        ...(record.isbn !== undefined && { isbn: record.isbn }),
        ...(record.language !== undefined && { language: record.language }),
        ...(record.subjects !== undefined && { subjects: record.subjects.slice(0, SUBJECTS_MAX) }),
        ...(record.publisher !== undefined && { publisher: record.publisher }),
      },
    );
    return {
      title: input.title,
      publication_year: input.publication_year,
      author,
      isbn: input.isbn ?? null,
      language: input.language ?? null,
      subjects: input.subjects ?? [],
      publisher: input.publisher ?? null,
      key: record.key ?? null,
    };
  } catch (error) {
    if (!(error instanceof InvalidInput)) throw error;
    const problems = Object.entries(error.details ?? {}).map(
      ([field, problem]) => `${bad(field)}: ${field} ${problem}`,
    );
    return { reason: problems.join('; ') || error.message };
  }
}

function authorOf(record: ImportedRecord): ImportCandidate['author'] | Refusal {
  const given = record.authorId?.trim();
  if (given) {
    if (!/^\d+$/.test(given)) return { reason: 'bad author: author_id must be a whole number' };
    // Beyond the integer column's range an id names no author, as in `POST /books`.
    const id = idOf(given);
    return id === undefined ? { reason: `bad author: no author ${given}` } : { id };
  }
  const name = record.authorName?.normalize('NFC').trim();
  if (!name) return { reason: 'no author (MARC 100 $a)' };
  const problem = checkValue(authorNameField, name);
  if (problem) return { reason: `bad author: the name ${problem}` };
  // Compared without punctuation and spaces (`catalogue_name_key`, migration 0016): it must keep something.
  if (!/[\p{L}\p{N}]/u.test(name)) return { reason: 'bad author: a name without a letter' };
  return { name };
}

const authorNameField = authorInputFields[0];

/** The reason's first words, as the report's readers look for them. */
function bad(field: string): string {
  const words: Record<string, string> = {
    isbn: 'bad ISBN',
    language: 'bad language',
    publication_year: 'bad year',
    title: 'bad title',
    subjects: 'bad subjects',
    publisher: 'bad publisher',
  };
  return words[field] ?? `bad ${field}`;
}
