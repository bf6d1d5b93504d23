/** @module Every table of the catalogue, as drizzle sees them. */
export { authors } from './authors.js';
export { books } from './books.js';
