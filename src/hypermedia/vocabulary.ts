/**
 * @module The link relations (nouns) and control names (verbs) the catalogue uses: one registry that
 * renderers, the profile, docs and tests share, where an entry may be marked deprecated.
 */
/** HTTP methods a control can use. */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A rel or control on its way out. The API has no versions: a name is deprecated, announced in every
 * response that carries it (`Deprecation`, RFC 9745; `Sunset`, RFC 8594; a `deprecation` link), kept
 * working until its sunset, and only then removed.
 */
export interface Deprecation {
  /** Day it was (or will be) deprecated, `YYYY-MM-DD` (UTC). */
  since: string;
  /** Day after which it may stop working, `YYYY-MM-DD` (UTC); absent while no date is set. */
  sunset?: string;
  /** Where people read what replaces it and how to move. */
  docs: string;
}

/** A link relation. */
export interface RelEntry {
  /** What following it gives. */
  means: string;
  deprecated?: Deprecation;
}

/** A control name. */
export interface ControlEntry {
  /** What submitting it does. */
  does: string;
  /** The HTTP method it always uses (every affordance of this name submits with it). */
  method: Method;
  deprecated?: Deprecation;
}

/** Every link relation. */
export const rels = {
  self: { means: 'This resource.' },
  collection: { means: 'The collection this item belongs to (its first page).' },
  item: { means: 'A member of this collection.' },
  author: { means: 'The author of this book; on a suggestion, the author suggested.' },
  books: { means: 'The books collection (first page); from an author, the books by that author.' },
  authors: { means: 'The authors collection (first page).' },
  search: { means: 'A URI template for searching and listing books.' },
  suggestions: {
    means:
      'A URI template answering, for the text a person has typed so far (`query`), up to 10 authors and books ' +
      'it may mean: authors first, each linking to its author or book (rel `author` or `book`, titled).',
  },
  correction: {
    means:
      'On a search where a misspelt word was corrected ("did you mean"): the same search with the corrected words, ' +
      'from its first page; the title is the corrected text.',
  },
  first: { means: 'The first page of this listing.' },
  last: { means: 'The last page of this listing; on the change feed, its end: only events that commit from now on.' },
  prev: { means: 'The previous page of this listing.' },
  facet: {
    means:
      'A counted value of a facet of this listing (asked for with `facets`): the listing narrowed to it, from ' +
      'its first page; for a value chosen already, the listing without it. Titled "<facet>: <value> (<count>)", ' +
      'with ", chosen" after the count for a chosen value.',
  },
  next: { means: 'The next page of this listing.' },
  up: {
    means:
      'The resource one level up (from a page of an author\u2019s or a borrower\u2019s items, that author or borrower).',
  },
  book: { means: 'The book a loan, copy or hold is of; on a suggestion, the book suggested.' },
  borrower: { means: 'The user who borrowed (a loan\u2019s borrower), or who waits for the book (a hold\u2019s).' },
  copies: { means: 'The copies of this book: each lendable item, with its barcode and where it is.' },
  copy: { means: 'The copy a loan lends, or that is set aside for a ready hold or on its way to it.' },
  holds: {
    means: 'Holds: from a book, its queue (librarians); from a user, that user\u2019s holds, waiting, ready and past.',
  },
  hold: {
    means:
      'A hold: from a book, the caller\u2019s own place in its queue; from a change or a notice, the hold it is about.',
  },
  overdue: { means: 'The active loans past their due date (librarians).' },
  loans: {
    means: 'Loans: all of them for a librarian, one\u2019s own for a member; from a user, that user\u2019s loans.',
  },
  loan: { means: 'The loan an event of the change feed, or a notice, is about.' },
  explain: {
    means:
      'Why a loan gets its terms: for a book, the terms a loan of it would get now (a librarian may fill in ' +
      '`borrower_id`, `copy_id` and `branch_id`); for a loan, the terms it keeps. Each value with the lending ' +
      'rule that supplied it, and every rule considered in precedence order with why it applies.',
  },
  loan_rule: { means: 'A lending rule of the rules matrix: from an explanation, the rule that supplied a value.' },
  changes: {
    means:
      'The change feed: every change to books and authors, and the loans the caller may read, in commit order; ' +
      'paged by cursor, or live as text/event-stream.',
  },
  users: { means: 'The users collection (librarians).' },
  branches: {
    means: 'The library\u2019s branches (first page), each with its code and opening days: for everyone signed in.',
  },
  branch: { means: 'A branch: where a copy belongs (its home), or the branch a lending rule is for.' },
  closures: {
    means:
      'The dates a branch is closed although its weekday is open (first page, in date order): due dates move ' +
      'off them to the next open day, and fines do not count them.',
  },
  home_branch: { means: 'The branch a user belongs to, where their holds are collected unless they name another.' },
  pickup_branch: { means: 'The branch where a hold\u2019s copy is collected.' },
  location: { means: 'The branch where a copy is now (while in transit, the one it was sent from).' },
  destination: { means: 'The branch a copy in transit is on its way to.' },
  patron_categories: { means: 'The patron categories (first page): adult, staff, \u2026 (librarians).' },
  patron_category: { means: 'The patron category of a user, or the one a lending rule is for.' },
  item_types: { means: 'The item types (first page): book, dvd, \u2026 (librarians).' },
  item_type: { means: 'The item type of a copy, or the one a lending rule is for.' },
  loan_rules: {
    means:
      'The lending rules matrix (first page): patron category \u00d7 item type \u00d7 branch, each possibly any, ' +
      'and the values each rule sets (librarians).',
  },
  account: {
    means:
      'A user\u2019s account with the library (the user and librarians): what they owe, and its history of charges, ' +
      'payments and waivers, newest first; from a change, the account it is about.',
  },
  payment: { means: 'The payments of a user\u2019s account; a librarian records one with its `create` control.' },
  charge: { means: 'From a waiver, the charge it waives; from a notice, the charge it tells of.' },
  notices: {
    means:
      'The email notices to a user (librarians), newest first: each one\u2019s kind, status, attempts and the ' +
      'last error, so that the desk sees what a patron was told and what did not reach them.',
  },
  tokens: { means: 'The bearer tokens of a user.' },
  me: { means: 'The signed-in user.' },
  desk: {
    means:
      'The circulation desk (librarians): read a patron\u2019s library card, then lend copies to them by barcode ' +
      '(`find-patron`, `check-out`); from the check-in desk, back to it.',
  },
  checkins: {
    means: 'The check-in desk (librarians): return copies by barcode and learn where each goes now (`check-in`).',
  },
  my_account: {
    means:
      'The signed-in caller\u2019s own page (My account): their current loans with due dates, their open holds with ' +
      'their place in each queue, what they owe and their recent charges, each with the controls the policy offers.',
  },
  loan_history: {
    means: 'From My account: the caller\u2019s returned loans (their loans filtered `status:returned`).',
  },
  charges: {
    means:
      'From My account: the caller\u2019s most recent charges (overdue fines, lost items, a librarian\u2019s), newest ' +
      'first, each with what was waived; the whole history, payments too, is the `account` link.',
  },
  sign_in: {
    means:
      'In the Link header of a 401: the root, whose `login` control signs a browser in (a client with a bearer ' +
      'token sends it instead).',
  },
  profile: { means: 'The profile: every link relation and control, its fields and when it appears (RFC 6906).' },
  'service-desc': { means: 'An OpenAPI 3.1 description of the HTTP interface, for tools (RFC 8631).' },
  invalidates: {
    means:
      'In the Link header of a successful write: a document the write made stale, which a client or cache ' +
      'holding it should read again (the written resource itself, Location and Content-Location go without saying).',
  },
  mcp: {
    means:
      'The Model Context Protocol endpoint (Streamable HTTP, POST only) for LLM agents: tools to start here, get ' +
      'and follow links and submit controls by name, as the bearer of the request\u2019s Authorization.',
  },
  'oai-pmh': {
    means:
      'The OAI-PMH 2.0 endpoint for harvesters (union catalogues, discovery layers): every book as a record in ' +
      '`oai_dc` or `marc21`, selectively by datestamp, with deletions (docs/records.md, "OAI-PMH").',
  },
  sru: {
    means:
      'The SRU endpoint (Search/Retrieve via URL, 2.0 and 1.2) for union catalogues and cataloguing tools: ' +
      'explain, and searchRetrieve by a CQL query, records as MARCXML or Dublin Core (docs/protocols.md, "SRU").',
  },
  deprecation: {
    means: 'Documentation of a deprecation announced by this response\u2019s Deprecation header (RFC 9745).',
  },
} as const satisfies Record<string, RelEntry>;
export type Rel = keyof typeof rels;

/** Every control. */
export const controls = {
  search: {
    does: 'List the collection\u2019s members matching the given parameters (its fields are query parameters).',
    method: 'GET',
  },
  create: {
    does: 'Add a new member to this collection; answers 201 with its Location.',
    method: 'POST',
  },
  update: {
    does: 'Change the fields sent, answering the full resource.',
    method: 'PUT',
  },
  edit: {
    does: 'Change the fields sent, answering the full resource (every field optional).',
    method: 'PATCH',
  },
  delete: {
    does: 'Remove this resource; for a token, revoke it.',
    method: 'DELETE',
  },
  borrow: {
    does: 'Borrow this book; the due date is set by the library. A librarian may lend for someone else.',
    method: 'POST',
  },
  return: {
    does: 'Return this loan (status "returned"), at the branch that lent it or the `branch_id` named.',
    method: 'PATCH',
  },
  renew: {
    does: 'Renew this loan: it is due a loan period from today, and the renewal is counted.',
    method: 'POST',
  },
  hold: {
    does: 'Join the queue for this book, collecting at your home branch or the `pickup_branch_id` named; when a copy comes back it is set aside for you there for a few days.',
    method: 'POST',
  },
  cancel: {
    does: 'Cancel this hold (its only field, status, is "cancelled"); a copy set aside for it passes on.',
    method: 'PATCH',
  },
  change_pickup: {
    does:
      'Collect this hold at another branch (`pickup_branch_id`): while it waits in the queue, before a copy is ' +
      'set aside for it or sent to it.',
    method: 'PUT',
  },
  receive: {
    does: 'Receive this copy, in transit, at the branch it was going to (no body): it is there now, and a hold it travelled for is ready.',
    method: 'POST',
  },
  withdraw: {
    does: 'Withdraw this copy from the collection (its only field, status, is "withdrawn"); its history stays.',
    method: 'PATCH',
  },
  import: {
    does:
      'Import a file of book records (MARCXML, ISO 2709 or CSV, sent as the body); answers a report of every ' +
      'record: imported, matched with a book already held, or refused and why (docs/records.md, "Import").',
    method: 'POST',
  },
  waive: {
    does:
      'Waive a charge, or part of it (`amount` in minor units, the rest of the charge when left out), for the ' +
      '`reason` given: the balance goes down by as much.',
    method: 'POST',
  },
  charge: {
    does: 'Charge this account an `amount` (minor units) for the `reason` given (a damaged item, a card).',
    method: 'POST',
  },
  'find-patron': {
    does:
      'Read a patron\u2019s library card at the desk (`card_number`): the desk for that patron, with their name, ' +
      'loans out and balance, ready to lend to them.',
    method: 'GET',
  },
  'check-out': {
    does:
      'Lend the copy with this `barcode` to the patron whose library card this is (`card_number`), at the desk\u2019s ' +
      'branch (`branch_id`, the librarian\u2019s home branch unless named), by the lending rules as a borrow is; ' +
      'answers 201 with the loan.',
    method: 'POST',
  },
  'check-in': {
    does:
      'Return the copy with this `barcode` at the desk\u2019s branch (`branch_id`, the librarian\u2019s home branch ' +
      'unless named); answers the returned loan, where the copy goes now (shelf, hold shelf for a patron, in ' +
      'transit to a branch) and the fine charged, if any.',
    method: 'POST',
  },
  login: {
    does: 'Sign in for this browser: exchange a library card number and its PIN, or a token, for a session cookie.',
    method: 'POST',
  },
  logout: {
    does: 'End this browser session.',
    method: 'DELETE',
  },
  'set-pin': {
    does:
      'Set the PIN this user signs in with, with their library card (`pin`): a patron changing their own gives ' +
      '`current_pin` too, a librarian does not. Lifts a lockout after wrong PINs.',
    method: 'PUT',
  },
  'remove-pin': {
    does: 'Remove this user\u2019s PIN: their library card signs in no more until a PIN is set again (librarians).',
    method: 'DELETE',
  },
  'unlock-pin': {
    does: 'Clear this card\u2019s lock and its count of wrong PINs, so its PIN may be tried again at once (librarians).',
    method: 'DELETE',
  },
} as const satisfies Record<string, ControlEntry>;
export type ControlName = keyof typeof controls;

/** A registry of rels and controls: the catalogue's own, or (in tests) one with entries changed. */
export interface Vocabulary {
  rels: Readonly<Record<Rel, RelEntry>>;
  controls: Readonly<Record<ControlName, ControlEntry>>;
}

/** The catalogue's vocabulary. */
export const vocabulary: Vocabulary = { rels, controls };

/**
 * A copy of a vocabulary with one rel or control marked deprecated: how an entry is retired (set it in
 * the registry above), and how tests exercise the mechanism without retiring a real name.
 */
export function deprecate(
  base: Vocabulary,
  entry: { rel: Rel } | { control: ControlName },
  deprecation: Deprecation,
): Vocabulary {
  if ('rel' in entry) {
    return { ...base, rels: { ...base.rels, [entry.rel]: { ...base.rels[entry.rel], deprecated: deprecation } } };
  }
  return {
    ...base,
    controls: { ...base.controls, [entry.control]: { ...base.controls[entry.control], deprecated: deprecation } },
  };
}
