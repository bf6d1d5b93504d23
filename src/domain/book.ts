/** @module What a book is, and which of its properties a client may write. */
import type { InputField } from './input.js';
import { TITLE_MAX_LENGTH, YEAR_MAX, YEAR_MIN } from './limits.js';

/** A book as clients see it (the seed's four fields). */
export interface Book {
  id: number;
  title: string;
  publication_year: number;
  author_id: number;
}

/** Whether a book can be borrowed now, and if not, until when it is out. Never who has it. */
export interface Availability {
  available: boolean;
  /** Due date of the active loan (ISO 8601, UTC), or null. */
  due_at: string | null;
}

/** A book as stored: with the version that its ETag carries, its availability and its author's name. */
export interface StoredBook extends Book, Availability {
  version: number;
  author_name: string;
}

/** The writable fields: all required on creation, any subset on change. */
export type BookInput = Omit<Book, 'id'>;

export const bookInputFields: readonly InputField[] = [
  { name: 'title', type: 'string', required: true, maxLength: TITLE_MAX_LENGTH, title: 'Title' },
  { name: 'publication_year', type: 'integer', required: true, min: YEAR_MIN, max: YEAR_MAX, title: 'Year' },
  { name: 'author_id', type: 'integer', required: true, min: 1, title: 'Author' },
];
