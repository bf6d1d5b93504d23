/** @module Every table of the catalogue, as drizzle sees them. */
export { ACCOUNT_ENTRY_KINDS, accountEntries, accounts } from './accounts.js';
export { authors } from './authors.js';
export { books } from './books.js';
export { branchClosures } from './branch-closures.js';
export { changes, changesHorizon } from './changes.js';
export { copies } from './copies.js';
export { authorBookCounts, collectionBlockCounts, collectionCounts, yearBookCounts } from './counts.js';
export { HOLD_STATUSES, holds } from './holds.js';
export { branches, itemTypes, patronCategories } from './lending-lists.js';
export { LIMITS, loanRules, PERIOD_UNITS } from './loan-rules.js';
export { loans } from './loans.js';
export { notices } from './notices.js';
export { oaiRecords } from './oai-records.js';
export { rateWindows } from './rate-windows.js';
export { searchWords } from './search-words.js';
export { tokens } from './tokens.js';
export { users } from './users.js';
export { writePositions } from './write-positions.js';
