/**
 * @module The link relations and control names the catalogue uses: one list that renderers, docs and
 * tests share. Relations are nouns (IANA-registered where one fits, RFC 8288); controls are verbs.
 */

/** Every link relation, with what following it gives. */
export const rels = {
  self: 'This resource.',
  collection: 'The collection this item belongs to (its first page).',
  item: 'A member of this collection.',
  author: 'The author of this book.',
  books: 'The books collection (first page); from an author, the books by that author.',
  authors: 'The authors collection (first page).',
  search: 'A URI template for searching and listing books.',
  first: 'The first page of this listing.',
  last: 'The last page of this listing.',
  prev: 'The previous page of this listing.',
  next: 'The next page of this listing.',
  up: 'The resource one level up (from a page of an author\u2019s or a borrower\u2019s items, that author or borrower).',
  book: 'The book a loan is of.',
  borrower: 'The user who borrowed (a loan\u2019s borrower).',
  loans: 'Loans: all of them for a librarian, one\u2019s own for a member; from a user, that user\u2019s loans.',
  users: 'The users collection (librarians).',
  tokens: 'The bearer tokens of a user.',
  me: 'The signed-in user.',
} as const;
export type Rel = keyof typeof rels;

/** Every control, with what submitting it does. */
export const controls = {
  search: 'List books matching the given parameters (GET with query parameters).',
  create: 'Add a new member to this collection (POST).',
  update: 'Change the fields sent, answering the full resource (PUT).',
  edit: 'Change the fields sent, answering the full resource (PATCH).',
  delete: 'Remove this resource (DELETE); for a token, revoke it.',
  borrow: 'Borrow this book (POST); the due date is set by the library.',
  return: 'Return this loan (PATCH with status "returned").',
  login: 'Sign in for this browser: exchange a token for a session cookie (POST).',
  logout: 'End this browser session (DELETE).',
} as const;
export type ControlName = keyof typeof controls;
