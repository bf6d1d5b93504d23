/**
 * @module Builds every URI the catalogue hands out, from RFC 6570 templates. Hrefs are path-absolute
 * (resolving against the request URL) unless a public base URL is configured, as behind a reverse proxy
 * that serves the catalogue under another origin or path prefix.
 */
import { parse } from 'uri-template';
import { DEFAULT_PER_PAGE } from '../domain/limits.js';

const template = (text: string) => {
  const parsed = parse(text);
  return { text, expand: (values: Record<string, unknown>) => parsed.expand(values) };
};

/**
 * Expands a template whose only expression is `{id}`, for a whole-number id, as its text around the number:
 * simple string expansion (RFC 6570 §3.2.2) leaves digits and sign as they are. Kept for its figure on the
 * streamed listing in docs/performance.md (every item links to itself and its author).
 */
const byId = (t: ReturnType<typeof template>) => {
  const [before = '', after, ...more] = t.text.split('{id}');
  if (after === undefined || more.length > 0 || /[{}]/.test(before + after)) {
    throw new Error(`${t.text} is not a template of {id} alone`);
  }
  return (id: number) => (Number.isSafeInteger(id) ? before + id + after : t.expand({ id }));
};

/**
 * The templates, path-absolute: one definition of every path, from which the links are expanded and the
 * routes registered (`route` takes a template and serves its path part).
 */
export const paths = {
  root: template('/'),
  health: template('/health'),
  books: template('/books{?query,author,filter*,sort,page,per_page,cursor,fields,facets}'),
  book: template('/books/{id}'),
  bookAuthor: template('/books/{id}/author'),
  authors: template('/authors{?query,filter*,sort,page,per_page,cursor,fields}'),
  author: template('/authors/{id}'),
  authorBooks: template('/authors/{id}/books{?query,author,filter*,sort,page,per_page,cursor,fields,facets}'),
  borrow: template('/books/{id}/borrow'),
  bookExplain: template('/books/{id}/explain{?borrower_id,copy_id,branch_id}'),
  imports: template('/imports{?source}'),
  bookCopies: template('/books/{id}/copies{?filter*,sort,page,per_page,cursor,fields}'),
  copy: template('/copies/{id}'),
  copyReceipts: template('/copies/{id}/receipts'),
  bookHolds: template('/books/{id}/holds{?filter*,sort,page,per_page,cursor,fields}'),
  hold: template('/holds/{id}'),
  holdPickup: template('/holds/{id}/pickup-branch'),
  loans: template('/loans{?filter*,sort,page,per_page,cursor,fields}'),
  loan: template('/loans/{id}'),
  loanRenewals: template('/loans/{id}/renewals'),
  loanExplain: template('/loans/{id}/explain'),
  users: template('/users{?query,filter*,sort,page,per_page,cursor,fields}'),
  user: template('/users/{id}'),
  userLoans: template('/users/{id}/loans{?filter*,sort,page,per_page,cursor,fields}'),
  userHolds: template('/users/{id}/holds{?filter*,sort,page,per_page,cursor,fields}'),
  userAccount: template('/users/{id}/account{?cursor}'),
  userPayments: template('/users/{id}/account/payments'),
  userCharges: template('/users/{id}/account/charges'),
  accountEntry: template('/users/{id}/account/entries/{entry}'),
  entryWaivers: template('/users/{id}/account/entries/{entry}/waivers'),
  userNotices: template('/users/{id}/notices{?cursor}'),
  userTokens: template('/users/{id}/tokens{?filter*,sort,page,per_page,cursor,fields}'),
  userToken: template('/users/{id}/tokens/{token}'),
  userPin: template('/users/{id}/pin'),
  userPinLock: template('/users/{id}/pin/lock'),
  branches: template('/branches{?filter*,sort,page,per_page,cursor,fields}'),
  branch: template('/branches/{id}'),
  branchClosures: template('/branches/{id}/closures{?sort,page,per_page,cursor,fields}'),
  branchClosure: template('/branches/{id}/closures/{closure}'),
  patronCategories: template('/patron-categories{?filter*,sort,page,per_page,cursor,fields}'),
  patronCategory: template('/patron-categories/{id}'),
  itemTypes: template('/item-types{?filter*,sort,page,per_page,cursor,fields}'),
  itemType: template('/item-types/{id}'),
  loanRules: template('/loan-rules{?filter*,sort,page,per_page,cursor,fields}'),
  loanRule: template('/loan-rules/{id}'),
  desk: template('/desk{?card_number}'),
  deskCheckouts: template('/desk/checkouts'),
  deskCheckins: template('/desk/checkins'),
  changes: template('/changes{?cursor,from,per_page}'),
  suggestions: template('/suggestions{?query}'),
  session: template('/session'),
  me: template('/me'),
  profile: template('/profile'),
  openapi: template('/openapi.json'),
  llms: template('/llms.txt'),
  mcp: template('/mcp'),
  oaiPmh: template('/oai'),
} as const;

/** Expansions of the templates of `{id}` alone. */
const expand = {
  book: byId(paths.book),
  bookAuthor: byId(paths.bookAuthor),
  author: byId(paths.author),
  borrow: byId(paths.borrow),
  loan: byId(paths.loan),
  loanRenewals: byId(paths.loanRenewals),
  loanExplain: byId(paths.loanExplain),
  // Served by the loan rules' resource; the explanation links each value to its rule.
  copy: byId(paths.copy),
  copyReceipts: byId(paths.copyReceipts),
  hold: byId(paths.hold),
  holdPickup: byId(paths.holdPickup),
  user: byId(paths.user),
  branch: byId(paths.branch),
  patronCategory: byId(paths.patronCategory),
  itemType: byId(paths.itemType),
  loanRule: byId(paths.loanRule),
};

/** A template with one variable of its query expression left out. */
function withoutVariable(text: string, name: string): string {
  return text.replace(new RegExp(`([{,?])${name}(?:,|(?=}))`), (_, before: string) => before).replace(',}', '}');
}

/** The query parameters of a listing URI, in the order they appear. */
export interface ListingParams {
  query?: string;
  author?: string;
  filter?: string[];
  sort?: string;
  page?: number;
  per_page?: number;
  /** An opaque keyset cursor from a paging link (`next`, `prev`, `last`). */
  cursor?: string;
  fields?: string;
  /** Facets to count, comma-separated (listings of books). */
  facets?: string;
}

/** A collection's first page: links into a collection lead there, so following links always finds controls. */
export const firstPage: ListingParams = { page: 1, per_page: DEFAULT_PER_PAGE };

/** The query parameters of the change feed. */
export interface ChangesParams {
  /** An opaque position from a `next` link or an event's id. */
  cursor?: string;
  /** Where to start without a cursor; see `FeedStart`. */
  from?: 'now';
  per_page?: number;
}

/** Builds absolute or path-absolute hrefs for one base. */
export class Uris {
  /**
   * The collections items link back to (`collection`), at their first page: expanded once for this base, as
   * every item of a streamed listing carries one.
   */
  readonly firstPages: Readonly<Record<'books' | 'authors' | 'loans' | 'users', string>>;

  constructor(private readonly base = '') {
    this.firstPages = {
      books: this.books(firstPage),
      authors: this.authors(firstPage),
      loans: this.loans(firstPage),
      users: this.users(firstPage),
    };
  }

  root = () => this.at(paths.root.expand({}));
  books = (params: ListingParams = {}) => this.at(paths.books.expand({ ...params }));
  book = (id: number) => this.at(expand.book(id));
  bookAuthor = (id: number) => this.at(expand.bookAuthor(id));
  authors = (params: ListingParams = {}) => this.at(paths.authors.expand({ ...params }));
  author = (id: number) => this.at(expand.author(id));
  authorBooks = (id: number, params: ListingParams = {}) => this.at(paths.authorBooks.expand({ id, ...params }));

  borrow = (id: number) => this.at(expand.borrow(id));
  imports = () => this.at(paths.imports.expand({}));
  loans = (params: ListingParams = {}) => this.at(paths.loans.expand({ ...params }));
  loan = (id: number) => this.at(expand.loan(id));
  loanRenewals = (id: number) => this.at(expand.loanRenewals(id));
  loanExplain = (id: number) => this.at(expand.loanExplain(id));
  /** Why a loan of the book would get its terms (for whom, which copy, at which branch: a librarian's choice). */
  bookExplain = (id: number, params: { borrower_id?: number; copy_id?: number; branch_id?: number } = {}) =>
    this.at(paths.bookExplain.expand({ id, ...params }));
  /** The same with its variables left for a librarian to fill. */
  bookExplainTemplate = (id: number) => this.at(paths.bookExplain.text.replace('{id}', String(id)));
  bookCopies = (id: number, params: ListingParams = {}) => this.at(paths.bookCopies.expand({ id, ...params }));
  copy = (id: number) => this.at(expand.copy(id));
  copyReceipts = (id: number) => this.at(expand.copyReceipts(id));
  bookHolds = (id: number, params: ListingParams = {}) => this.at(paths.bookHolds.expand({ id, ...params }));
  hold = (id: number) => this.at(expand.hold(id));
  holdPickup = (id: number) => this.at(expand.holdPickup(id));
  userHolds = (id: number, params: ListingParams = {}) => this.at(paths.userHolds.expand({ id, ...params }));
  users = (params: ListingParams = {}) => this.at(paths.users.expand({ ...params }));
  user = (id: number) => this.at(expand.user(id));
  userLoans = (id: number, params: ListingParams = {}) => this.at(paths.userLoans.expand({ id, ...params }));
  /** A user's account: the balance and the newest entries, or older ones from `cursor`. */
  userAccount = (id: number, cursor?: string) => this.at(paths.userAccount.expand({ id, cursor }));
  userPayments = (id: number) => this.at(paths.userPayments.expand({ id }));
  userCharges = (id: number) => this.at(paths.userCharges.expand({ id }));
  accountEntry = (id: number, entry: number) => this.at(paths.accountEntry.expand({ id, entry }));
  entryWaivers = (id: number, entry: number) => this.at(paths.entryWaivers.expand({ id, entry }));
  /** The notices to a user, newest first, or older ones from `cursor`. */
  userNotices = (id: number, cursor?: string) => this.at(paths.userNotices.expand({ id, cursor }));
  userTokens = (id: number, params: ListingParams = {}) => this.at(paths.userTokens.expand({ id, ...params }));
  userToken = (id: number, token: number) => this.at(paths.userToken.expand({ id, token }));
  /** Where a user's PIN is set (it is never read). */
  userPin = (id: number) => this.at(paths.userPin.expand({ id }));
  userPinLock = (id: number) => this.at(paths.userPinLock.expand({ id }));

  branches = (params: ListingParams = {}) => this.at(paths.branches.expand({ ...params }));
  branch = (id: number) => this.at(expand.branch(id));
  branchClosures = (id: number, params: ListingParams = {}) => this.at(paths.branchClosures.expand({ id, ...params }));
  branchClosure = (id: number, closure: number) => this.at(paths.branchClosure.expand({ id, closure }));
  patronCategories = (params: ListingParams = {}) => this.at(paths.patronCategories.expand({ ...params }));
  patronCategory = (id: number) => this.at(expand.patronCategory(id));
  itemTypes = (params: ListingParams = {}) => this.at(paths.itemTypes.expand({ ...params }));
  itemType = (id: number) => this.at(expand.itemType(id));
  loanRules = (params: ListingParams = {}) => this.at(paths.loanRules.expand({ ...params }));
  loanRule = (id: number) => this.at(expand.loanRule(id));

  /** The circulation desk; with a card's number, the desk for that patron. */
  desk = (cardNumber?: string) => this.at(paths.desk.expand({ card_number: cardNumber }));
  deskCheckouts = () => this.at(paths.deskCheckouts.expand({}));
  deskCheckins = () => this.at(paths.deskCheckins.expand({}));

  changes = (params: ChangesParams = {}) => this.at(paths.changes.expand({ ...params }));
  /** Suggestions for a text typed so far; without it, the template the root advertises. */
  suggestions = (query?: string) =>
    this.at(query === undefined ? paths.suggestions.text : paths.suggestions.expand({ query }));
  session = () => this.at(paths.session.expand({}));
  /** The signed-in caller's own page: the same URI for everyone, answered per caller. */
  me = () => this.at(paths.me.expand({}));
  profile = () => this.at(paths.profile.expand({}));
  openapi = () => this.at(paths.openapi.expand({}));
  llms = () => this.at(paths.llms.expand({}));
  mcp = () => this.at(paths.mcp.expand({}));
  oaiPmh = () => this.at(paths.oaiPmh.expand({}));

  /** A path template (`/books/{id}`) under this base, unexpanded: for descriptions of the interface. */
  pathTemplate = (path: string) => this.at(path);

  /**
   * The search template as advertised by the root (`templated: true`): the listing's own template, so
   * that a list of filters expands the way the listing reads it (`filter=a&filter=b`), less `cursor`,
   * which a client never fills in (it comes only in paging links).
   */
  booksSearchTemplate = () => this.at(withoutVariable(paths.books.text, 'cursor'));

  private at(path: string): string {
    return this.base + path;
  }
}
