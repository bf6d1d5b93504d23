/** @module The listing specification of each collection: which fields can be sorted, filtered, selected. */
import type { ListingSpec } from './listing.js';

export const bookListingSpec: ListingSpec = {
  fields: { id: 'integer', title: 'string', publication_year: 'integer', author_id: 'integer' },
  author: true,
};

export const authorListingSpec: ListingSpec = {
  fields: { id: 'integer', name: 'string' },
  author: false,
};
