/** @module What an author is, and which of their properties a client may write. */
import type { InputField, InputOf } from './input.js';
import { NAME_MAX_LENGTH } from './limits.js';

/** An author as clients see them. */
export interface Author {
  id: number;
  name: string;
}

/** An author as stored: with the version that their ETag carries. */
export interface StoredAuthor extends Author {
  version: number;
}

export type AuthorInput = InputOf<typeof authorInputFields>;

export const authorInputFields = [
  { name: 'name', type: 'string', required: true, maxLength: NAME_MAX_LENGTH, title: 'Name' },
] as const satisfies readonly InputField[];
