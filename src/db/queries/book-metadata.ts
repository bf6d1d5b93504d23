/** @module The columns of a book a record is made from (OAI-PMH, SRU), named as `BookMetadata` names them. */
import { books } from '../schema/index.js';

/** Every field of `BookMetadata` but the id, which each caller reads from its own table. */
export const bookMetadataColumns = {
  title: books.title,
  publication_year: books.publicationYear,
  author_id: books.authorId,
  author_name: books.authorName,
  isbn: books.isbn,
  language: books.language,
  subjects: books.subjects,
  publisher: books.publisher,
};
