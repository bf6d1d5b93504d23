/**
 * @module Builds every URI the catalogue hands out, from RFC 6570 templates. Hrefs are path-absolute
 * (resolving against the request URL) unless a public base URL is configured, as behind a reverse proxy
 * that serves the catalogue under another origin or path prefix.
 */
import { parse } from 'uri-template';
import { DEFAULT_PER_PAGE } from '../domain/limits.js';

/** A stand-in id no constant of the code contains: a template expanded with it is cut around it. */
const STAND_IN_ID = 987654321;

const template = (text: string) => {
  const parsed = parse(text);
  const expand = (values: Record<string, unknown>) => parsed.expand(values);
  const constants = new WeakMap<object, (id: number | undefined) => string>();
  return {
    text,
    expand,
    /**
     * The expansion for `params` and, where the template has one, `id`. Frozen params are constants of
     * the code (a first page, the fields of a choice list): their expansion is worked out once per
     * template, and later ones only place the id.
     */
    with(params: object, id?: number): string {
      if (!Object.isFrozen(params)) return expand(id === undefined ? { ...params } : { id, ...params });
      let expansion = constants.get(params);
      if (!expansion) {
        expansion = expansionOf(expand, params);
        constants.set(params, expansion);
      }
      return expansion(id);
    },
  };
};

/**
 * The expansion of fixed `params`, the id placed as its text around them: simple string expansion
 * (RFC 6570 §3.2.2) leaves digits and sign as they are.
 */
function expansionOf(
  expand: (values: Record<string, unknown>) => string,
  params: object,
): (id: number | undefined) => string {
  const withoutId = expand({ ...params });
  const [before = '', after, ...more] = expand({ id: STAND_IN_ID, ...params }).split(String(STAND_IN_ID));
  if (after === undefined || more.length > 0) return (id) => (id === undefined ? withoutId : expand({ id, ...params }));
  return (id) =>
    id === undefined ? withoutId : Number.isSafeInteger(id) ? before + id + after : expand({ id, ...params });
}

/**
 * Expands a template of `{id}` and no other value, for a whole-number id, as its text around the number.
 * Kept for its figure on the streamed listing in docs/performance.md (every item links to itself and its
 * author).
 */
const byId = (t: ReturnType<typeof template>): ((id: number) => string) => expansionOf(t.expand, {});

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
  importJob: template('/imports/{id}'),
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
  sru: template('/sru'),
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
export const firstPage: ListingParams = Object.freeze({ page: 1, per_page: DEFAULT_PER_PAGE });

/** No query parameters. */
const none: Readonly<Record<never, never>> = Object.freeze({});

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

  root = () => this.at(paths.root.with(none));
  books = (params: ListingParams = none) => this.at(paths.books.with(params));
  book = (id: number) => this.at(expand.book(id));
  bookAuthor = (id: number) => this.at(expand.bookAuthor(id));
  authors = (params: ListingParams = none) => this.at(paths.authors.with(params));
  author = (id: number) => this.at(expand.author(id));
  authorBooks = (id: number, params: ListingParams = none) => this.at(paths.authorBooks.with(params, id));

  borrow = (id: number) => this.at(expand.borrow(id));
  imports = () => this.at(paths.imports.with(none));
  importJob = (id: number) => this.at(paths.importJob.with(none, id));
  loans = (params: ListingParams = none) => this.at(paths.loans.with(params));
  loan = (id: number) => this.at(expand.loan(id));
  loanRenewals = (id: number) => this.at(expand.loanRenewals(id));
  loanExplain = (id: number) => this.at(expand.loanExplain(id));
  /** Why a loan of the book would get its terms (for whom, which copy, at which branch: a librarian's choice). */
  bookExplain = (id: number, params: { borrower_id?: number; copy_id?: number; branch_id?: number } = none) =>
    this.at(paths.bookExplain.with(params, id));
  /** The same with its variables left for a librarian to fill. */
  bookExplainTemplate = (id: number) => this.at(paths.bookExplain.text.replace('{id}', String(id)));
  bookCopies = (id: number, params: ListingParams = none) => this.at(paths.bookCopies.with(params, id));
  copy = (id: number) => this.at(expand.copy(id));
  copyReceipts = (id: number) => this.at(expand.copyReceipts(id));
  bookHolds = (id: number, params: ListingParams = none) => this.at(paths.bookHolds.with(params, id));
  hold = (id: number) => this.at(expand.hold(id));
  holdPickup = (id: number) => this.at(expand.holdPickup(id));
  userHolds = (id: number, params: ListingParams = none) => this.at(paths.userHolds.with(params, id));
  users = (params: ListingParams = none) => this.at(paths.users.with(params));
  user = (id: number) => this.at(expand.user(id));
  userLoans = (id: number, params: ListingParams = none) => this.at(paths.userLoans.with(params, id));
  /** A user's account: the balance and the newest entries, or older ones from `cursor`. */
  userAccount = (id: number, cursor?: string) => this.at(paths.userAccount.expand({ id, cursor }));
  userPayments = (id: number) => this.at(paths.userPayments.with(none, id));
  userCharges = (id: number) => this.at(paths.userCharges.with(none, id));
  accountEntry = (id: number, entry: number) => this.at(paths.accountEntry.expand({ id, entry }));
  entryWaivers = (id: number, entry: number) => this.at(paths.entryWaivers.expand({ id, entry }));
  /** The notices to a user, newest first, or older ones from `cursor`. */
  userNotices = (id: number, cursor?: string) => this.at(paths.userNotices.expand({ id, cursor }));
  userTokens = (id: number, params: ListingParams = none) => this.at(paths.userTokens.with(params, id));
  userToken = (id: number, token: number) => this.at(paths.userToken.expand({ id, token }));
  /** Where a user's PIN is set (it is never read). */
  userPin = (id: number) => this.at(paths.userPin.with(none, id));
  userPinLock = (id: number) => this.at(paths.userPinLock.with(none, id));

  branches = (params: ListingParams = none) => this.at(paths.branches.with(params));
  branch = (id: number) => this.at(expand.branch(id));
  branchClosures = (id: number, params: ListingParams = none) => this.at(paths.branchClosures.with(params, id));
  branchClosure = (id: number, closure: number) => this.at(paths.branchClosure.expand({ id, closure }));
  patronCategories = (params: ListingParams = none) => this.at(paths.patronCategories.with(params));
  patronCategory = (id: number) => this.at(expand.patronCategory(id));
  itemTypes = (params: ListingParams = none) => this.at(paths.itemTypes.with(params));
  itemType = (id: number) => this.at(expand.itemType(id));
  loanRules = (params: ListingParams = none) => this.at(paths.loanRules.with(params));
  loanRule = (id: number) => this.at(expand.loanRule(id));

  /** The circulation desk; with a card's number, the desk for that patron. */
  desk = (cardNumber?: string) => this.at(paths.desk.expand({ card_number: cardNumber }));
  deskCheckouts = () => this.at(paths.deskCheckouts.with(none));
  deskCheckins = () => this.at(paths.deskCheckins.with(none));

  changes = (params: ChangesParams = {}) => this.at(paths.changes.expand({ ...params }));
  /** Suggestions for a text typed so far; without it, the template the root advertises. */
  suggestions = (query?: string) =>
    this.at(query === undefined ? paths.suggestions.text : paths.suggestions.expand({ query }));
  session = () => this.at(paths.session.with(none));
  /** The signed-in caller's own page: the same URI for everyone, answered per caller. */
  me = () => this.at(paths.me.with(none));
  profile = () => this.at(paths.profile.with(none));
  openapi = () => this.at(paths.openapi.with(none));
  llms = () => this.at(paths.llms.with(none));
  mcp = () => this.at(paths.mcp.with(none));
  oaiPmh = () => this.at(paths.oaiPmh.with(none));
  sru = () => this.at(paths.sru.with(none));

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
