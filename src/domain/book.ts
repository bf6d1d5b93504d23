/** @module What a book is, and which of its properties a client may write. */
import type { InputField, InputOf } from './input.js';
import {
  PUBLISHER_MAX_LENGTH,
  SUBJECT_MAX_LENGTH,
  SUBJECTS_MAX,
  TITLE_MAX_LENGTH,
  YEAR_MAX,
  YEAR_MIN,
} from './limits.js';

/** A book as clients see it (the seed's four fields). */
export interface Book {
  id: number;
  title: string;
  publication_year: number;
  author_id: number;
}

/** Whether a copy of a book can be borrowed now, and if not, when the next is due back. Never who has it. */
export interface Availability {
  /** A copy is on the shelf for anyone (`copies_available > 0`). */
  available: boolean;
  /** While no copy is on the shelf: the earliest due date of its loans (ISO 8601, UTC), or null. */
  due_at: string | null;
  /** Copies in the collection (not withdrawn). */
  copies_total: number;
  /** Copies on the shelf for anyone: not lent, not set aside for a hold. */
  copies_available: number;
}

/** What a library records of an edition besides the seed's fields; each optional (null or none). */
export interface BibliographicFields {
  /** ISBN-13, digits only. */
  isbn: string | null;
  /** ISO 639-2/B code, as MARC 21 field 041 carries it. */
  language: string | null;
  /** Subject headings, each once, in the order given. */
  subjects: string[];
  publisher: string | null;
}

/** A book as stored: with the version that its ETag carries, its availability and its author's name. */
export interface StoredBook extends Book, BibliographicFields, Availability {
  version: number;
  author_name: string;
}

/**
 * A book as a listing streamed in JSON reads it: its state already written as JSON text by the database
 * (`state_json`, the bytes `JSON.stringify` writes of the state a member shows), and what its links need.
 */
export interface BookWithStateJson {
  id: number;
  author_id: number;
  author_name: string;
  state_json: string;
}

/**
 * The writable fields: the seed's three required on creation, the bibliographic ones optional (null clears
 * one; no subjects clears the list); any subset on change.
 */
export type BookInput = InputOf<typeof bookInputFields>;

export const bookInputFields = [
  { name: 'title', type: 'string', required: true, maxLength: TITLE_MAX_LENGTH, title: 'Title' },
  { name: 'publication_year', type: 'integer', required: true, min: YEAR_MIN, max: YEAR_MAX, title: 'Year' },
  { name: 'author_id', type: 'integer', required: true, min: 1, title: 'Author' },
  { name: 'isbn', type: 'string', required: false, format: 'isbn', nullable: true, title: 'ISBN' },
  { name: 'language', type: 'string', required: false, format: 'language', nullable: true, title: 'Language' },
  {
    name: 'subjects',
    type: 'string',
    required: false,
    maxLength: SUBJECT_MAX_LENGTH,
    multiple: true,
    maxItems: SUBJECTS_MAX,
    nullable: true,
    title: 'Subjects',
  },
  {
    name: 'publisher',
    type: 'string',
    required: false,
    maxLength: PUBLISHER_MAX_LENGTH,
    nullable: true,
    title: 'Publisher',
  },
] as const satisfies readonly InputField[];
