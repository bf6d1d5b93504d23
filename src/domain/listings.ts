/** @module The listing specification of each collection: which fields can be sorted, filtered, selected. */
import type { ListingSpec } from './listing.js';

export const bookListingSpec: ListingSpec = {
  fields: { id: 'integer', title: 'string', publication_year: 'integer', author_id: 'integer' },
  filters: { available: 'boolean' },
  extraFields: ['available', 'due_at'],
  author: true,
};

export const authorListingSpec: ListingSpec = {
  fields: { id: 'integer', name: 'string' },
  author: false,
};

export const userListingSpec: ListingSpec = {
  fields: { id: 'integer', name: 'string' },
  filters: { role: ['librarian', 'member'] },
  extraFields: ['role'],
  author: false,
};

export const loanListingSpec: ListingSpec = {
  fields: { id: 'integer', book_id: 'integer', borrower_id: 'integer' },
  filters: { status: ['active', 'returned'], overdue: 'boolean' },
  extraFields: ['borrowed_at', 'due_at', 'returned_at', 'status'],
  author: false,
  search: false,
};

/** A user's tokens: never searched; paged (a user holds at most MAX_TOKENS_PER_USER, one page by default). */
export const tokenListingSpec: ListingSpec = {
  fields: { id: 'integer', name: 'string' },
  extraFields: ['user_id', 'created_at'],
  author: false,
  search: false,
};
