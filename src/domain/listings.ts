/**
 * @module The listing specification of each collection: which fields can be sorted, filtered, selected,
 * and the orders a person chooses among, in words.
 */
import { DECADE_MAX, DECADE_MIN, FACET_NAMES } from './facets.js';
import type { ListingSpec, SortChoice } from './listing.js';
import { LOAN_RULE_FIELDS } from './loan-rule.js';

/** A search's own order: the best matches first; without search words, the order items were added in. */
const relevance: SortChoice = { value: '', prompt: 'Relevance' };

/** A listing of names: alphabetical either way, or the latest added first. */
const byName: readonly SortChoice[] = [
  relevance,
  { value: 'name', prompt: 'Name A\u2013Z' },
  { value: '-name', prompt: 'Name Z\u2013A' },
  { value: '-id', prompt: 'Newest added first' },
];

export const bookListingSpec = {
  fields: {
    id: 'integer',
    title: 'string',
    publication_year: 'integer',
    author_id: 'integer',
    copies_available: 'integer',
  },
  filters: {
    available: 'boolean',
    // Publication years from the value to nine after it (decade:1810 is 1810–1819).
    decade: { type: 'integer', min: DECADE_MIN, max: DECADE_MAX, step: 10 },
    isbn: { type: 'string', format: 'isbn' },
    language: { type: 'string', format: 'language' },
    // Books with this subject heading among theirs, exactly as stored.
    subject: { type: 'string' },
  },
  extraFields: ['available', 'due_at', 'copies_total', 'isbn', 'language', 'subjects', 'publisher'],
  author: true,
  exactFirst: true,
  sortChoices: [
    relevance,
    { value: 'title', prompt: 'Title A\u2013Z' },
    { value: '-title', prompt: 'Title Z\u2013A' },
    { value: '-publication_year', prompt: 'Newest first' },
    { value: 'publication_year', prompt: 'Oldest first' },
    { value: '-copies_available', prompt: 'Most available' },
  ],
  facets: FACET_NAMES,
} satisfies ListingSpec;

export const authorListingSpec = {
  fields: { id: 'integer', name: 'string' },
  author: false,
  exactFirst: true,
  sortChoices: byName,
} satisfies ListingSpec;

export const userListingSpec = {
  fields: { id: 'integer', name: 'string' },
  filters: { role: ['librarian', 'member'] },
  extraFields: ['role', 'patron_category_id', 'home_branch_id'],
  author: false,
  sortChoices: byName,
} satisfies ListingSpec;

export const loanListingSpec = {
  fields: { id: 'integer', book_id: 'integer', borrower_id: 'integer', copy_id: 'integer' },
  filters: { status: ['active', 'overdue', 'returned'], overdue: 'boolean' },
  extraFields: ['borrowed_at', 'due_at', 'returned_at', 'renewals', 'status'],
  author: false,
  search: false,
  // Loans are numbered as they are made: by id is by the day borrowed.
  sortChoices: [
    { value: '', prompt: 'Oldest first' },
    { value: '-id', prompt: 'Newest first' },
  ],
} satisfies ListingSpec;

/** A user's tokens: never searched; paged (a user holds at most MAX_TOKENS_PER_USER, one page by default). */
export const tokenListingSpec = {
  fields: { id: 'integer', name: 'string' },
  extraFields: ['user_id', 'created_at'],
  author: false,
  search: false,
} satisfies ListingSpec;

/** A book's copies, in the order they were added. */
export const copyListingSpec = {
  fields: { id: 'integer' },
  filters: { status: ['available', 'on_loan', 'in_transit', 'on_hold', 'withdrawn'] },
  extraFields: [
    'book_id',
    'barcode',
    'label',
    'added_at',
    'withdrawn_at',
    'status',
    'due_at',
    'branch_id',
    'location_branch_id',
    'transit_to_branch_id',
    'item_type_id',
  ],
  author: false,
  search: false,
} satisfies ListingSpec;

/** Holds: a book's queue (by default the open ones, in queue order), or a user's. */
export const holdListingSpec = {
  fields: { id: 'integer', book_id: 'integer', borrower_id: 'integer' },
  filters: { status: ['waiting', 'in_transit', 'ready', 'fulfilled', 'cancelled', 'expired', 'open'] },
  sorts: { position: 'integer' },
  extraFields: ['placed_at', 'status', 'pickup_branch_id', 'position', 'copy_id', 'ready_until', 'ended_at', 'loan_id'],
  author: false,
  search: false,
} satisfies ListingSpec;

/** A lending list (branches, patron categories, item types): by code, name or when added. */
export const listEntryListingSpec = {
  fields: { id: 'integer', code: 'string', name: 'string' },
  filters: { is_default: 'boolean' },
  extraFields: ['is_default'],
  author: false,
  search: false,
  sortChoices: [
    { value: '', prompt: 'Oldest first' },
    { value: 'name', prompt: 'Name A\u2013Z' },
    { value: 'code', prompt: 'Code A\u2013Z' },
  ],
} satisfies ListingSpec;

/** Branches: their opening days besides. */
export const branchListingSpec = {
  ...listEntryListingSpec,
  extraFields: ['is_default', 'open_days'],
} satisfies ListingSpec;

/** A branch's closures, in date order unless sorted otherwise. */
export const closureListingSpec = {
  fields: { id: 'integer', date: 'string' },
  extraFields: ['branch_id', 'reason', 'created_at'],
  author: false,
  search: false,
  sortChoices: [
    { value: '', prompt: 'By date' },
    { value: '-date', prompt: 'Latest first' },
  ],
} satisfies ListingSpec;

/** A scope of a rule by id, or `any` for the rules that leave it open. */
const scopeFilter = { type: 'string', pattern: { test: /^(any|[1-9]\d{0,9})$/, rule: 'an id, or any' } } as const;

/**
 * The lending rules, in the order they were added; narrowed by scope, each filter an id or `any`
 * (`branch_id:any`: the rules for every branch).
 */
export const loanRuleListingSpec = {
  fields: { id: 'integer' },
  filters: { patron_category_id: scopeFilter, item_type_id: scopeFilter, branch_id: scopeFilter },
  extraFields: LOAN_RULE_FIELDS,
  author: false,
  search: false,
  sortChoices: [
    { value: '', prompt: 'Oldest first' },
    { value: '-id', prompt: 'Newest first' },
  ],
} satisfies ListingSpec;
