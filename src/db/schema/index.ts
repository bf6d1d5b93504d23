/** @module Every table of the catalogue, as drizzle sees them. */
export { authors } from './authors.js';
export { books } from './books.js';
export { changes, changesHorizon } from './changes.js';
export { authorBookCounts, collectionCounts, yearBookCounts } from './counts.js';
export { loans } from './loans.js';
export { tokens } from './tokens.js';
export { users } from './users.js';
