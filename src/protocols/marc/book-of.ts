/** @module The fields of a book's resource that its MARC record is made from; the author's name is its link's title. */
import type { Resource } from '../../hypermedia/model.js';
import type { MarcBook } from './record.js';

/** What a listing's `fields` left out is left out of the record too. */
export function marcBookOf(resource: Resource): MarcBook {
  const { state } = resource;
  return {
    id: typeof state.id === 'number' ? state.id : undefined,
    title: typeof state.title === 'string' ? state.title : undefined,
    publication_year: typeof state.publication_year === 'number' ? state.publication_year : undefined,
    author_name: resource.links.find((link) => link.rel === 'author')?.title,
    isbn: typeof state.isbn === 'string' ? state.isbn : null,
    language: typeof state.language === 'string' ? state.language : null,
    subjects: Array.isArray(state.subjects) ? (state.subjects as string[]) : [],
    publisher: typeof state.publisher === 'string' ? state.publisher : null,
  };
}

/** The kinds of resource a MARC format writes: a book, a page of books, all of them streamed. */
export const BOOK_KINDS = ['book', 'book-page', 'book-list'] as const;
