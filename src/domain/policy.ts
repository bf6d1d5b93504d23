/**
 * @module Who may do what, in which state: one predicate per rule, which renderers ask to offer a control
 * and routes ask to allow the request. The database backs the state rules up against races.
 */

import {
  type AccountEntry,
  chargeSettled,
  type FineLimit,
  fineLimitReason,
  isCharge,
  isWaivable,
  overFineLimit,
} from './account.js';
import type { Availability, Book } from './book.js';
import type { Clock } from './clock.js';
import { type Copy, copyInTransit } from './copy.js';
import { type CatalogueError, Conflict, Forbidden, NotFound, Unauthorized } from './errors.js';
import { type Hold, holdIsOpen } from './hold.js';
import type { LendingListKind } from './lending-lists.js';
import {
  holdRefusalReason,
  type LendingDecision,
  type LoansOfKind,
  lendingRefusalReason,
  renewalLimitReason,
  renewalRefusalReason,
} from './lending-rules.js';
import { MAX_TOKENS_PER_USER } from './limits.js';
import { type Loan, type LoanStatus, loanStatus, type RenewableLoan } from './loan.js';
import { money } from './money.js';
import { type PinLock, pinLockAt, pinLockHeld } from './pin.js';
import {
  alreadyBorrowed,
  alreadyHeld,
  authorStillHasBooks,
  bookHasLoans,
  bookHeldByOthers,
  copyNotInTransit,
  copyOnLoan,
  copyOnShelf,
  copyWithdrawn,
  defaultEntryStays,
  defaultRuleStays,
  holdCapReached,
  holdEnded,
  holdsNotTaken,
  lendingRefused,
  loanAlreadyReturned,
  lostNotRenewable,
  noCopyAvailable,
  overdueNotRenewable,
  pickupFixed,
  renewalLimitReached,
  tooManyTokens,
} from './refusals.js';
import type { PinRecord, Role } from './user.js';

/**
 * The library's rules, as the operator set them. Loan periods, renewals and caps are the lending rules'
 * (`lending-rules.ts`), decided per loan.
 */
export interface AccessPolicy {
  /** Books and authors can be read without a token (as a library's public catalogue can). */
  publicReads: boolean;
  /** Days a copy set aside for a ready hold waits for its borrower before passing to the next in line. */
  holdDays: number;
  /** Most open holds (waiting or ready) one user may have. */
  maxHolds: number;
  /** Most a borrower may owe (minor units) and still borrow and renew; `none` for no limit. */
  fineLimit: FineLimit;
}

/** Who is making the request. */
export type Caller =
  | { readonly kind: 'anonymous' }
  | {
      readonly kind: 'user';
      readonly id: number;
      readonly name: string;
      readonly role: Role;
      /** Which lending rules apply to them. */
      readonly patronCategoryId: number;
      /** Their branch: a librarian's desk unless a borrow names another; a member's pickup branch. */
      readonly homeBranchId: number;
      /** Loans this user holds now. */
      readonly activeLoans: number;
      /** Holds this user has open (waiting or ready); the cap on holds reads it. */
      readonly openHolds: number;
      /** What they owe, in minor units of the library's currency; over the fine limit they cannot borrow. */
      readonly balance: number;
      /**
       * Their active loans by item type and branch, when read with the caller: a book read's borrow control
       * counts them in the capping rule's scope without asking the database (the borrow itself does ask).
       */
      readonly loansByKind?: readonly LoansOfKind[];
      /** How the caller proved who they are: a bearer token, or a browser session cookie holding one. */
      readonly via?: 'bearer' | 'session';
    };

export type SignedIn = Extract<Caller, { kind: 'user' }>;

export const anonymous: Caller = { kind: 'anonymous' };

/** An allowed action, or the error that refusing it answers with. */
export type Decision = { allowed: true } | { allowed: false; readonly refusal: CatalogueError };

const allowed: Decision = { allowed: true };
/**
 * The refusal is built only when read: renderers ask every predicate on every request and most answers
 * are refusals nobody throws, and building an Error (its stack trace) was a tenth of a request's CPU.
 */
const refuse = (refusal: () => CatalogueError): Decision => new Refused(refusal);

/** A class, not an object literal with a getter: a literal's accessor is made anew for every object. */
class Refused {
  readonly allowed = false;
  readonly #make: () => CatalogueError;
  constructor(make: () => CatalogueError) {
    this.#make = make;
  }
  get refusal(): CatalogueError {
    return this.#make();
  }
}

/** What the caller has to do with a book: read with the book for a signed-in caller. */
export interface CallerCirculation {
  /** The caller has a copy of it on loan. */
  on_loan: boolean;
  /** The caller's open hold on it, if any. */
  hold: Pick<Hold, 'id' | 'status' | 'position' | 'ready_until'> | null;
}

/**
 * Whether a book is in circulation: a copy of it lent or set aside for a ready hold, or no copy at all
 * (then it can be held). Only then can anyone have it on loan or on hold: a book with every copy on the
 * shelf has no loan, and no open hold either, since settling circulation, which ends every step of it,
 * gives a copy on the shelf to the first waiting hold (and a lent copy cannot be withdrawn).
 */
export function inCirculation(book: Pick<Availability, 'copies_available' | 'copies_total'>): boolean {
  return book.copies_available < book.copies_total || book.copies_total === 0;
}

/** What a decision about a book needs beyond its fields. */
export interface BookFacts {
  id: number;
  /** Copies on the shelf for anyone. */
  copies_available: number;
  /** Copies set aside for ready holds (a librarian lends them to their borrowers). */
  copies_ready: number;
  /** When the next copy is due back, while none is on the shelf. */
  due_at: string | null;
  /** Any loan or hold ever: history keeps the book. */
  hasLoans: boolean;
  /** The caller's loan and hold of it; absent when not read (anonymous callers, lists). */
  mine: CallerCirculation | undefined;
  /** The lending rules' decision for the caller borrowing it now; absent when no copy is theirs to borrow. */
  lending: BorrowDecision | undefined;
  /** The lending rules' decision for the caller holding it; absent when no hold could be placed. */
  holding: LendingDecision | undefined;
}

/** A decision for one borrower, with their active loans counted in the scope of the rule that caps them. */
export interface BorrowDecision {
  decision: LendingDecision;
  loansInScope: number;
  /** When a loan made now would be due (ISO 8601). */
  due_at: string;
}

/** A book as the predicates about it are given it. */
export type BookSubject = Book &
  Availability & {
    hasLoans?: boolean;
    copies_ready?: number;
    mine?: CallerCirculation | undefined;
    lending?: BorrowDecision | undefined;
    holding?: LendingDecision | undefined;
  };

/** The facts of a book as read (`hasLoans` unknown counts as true: history is kept unless known absent). */
export function bookFacts(book: BookSubject): BookFacts {
  return {
    id: book.id,
    copies_available: book.copies_available,
    copies_ready: book.copies_ready ?? 0,
    due_at: book.due_at,
    hasLoans: book.hasLoans ?? true,
    mine: book.mine,
    lending: book.lending,
    holding: book.holding,
  };
}

export interface AuthorFacts {
  id: number;
  hasBooks: boolean;
}

/** An entry of a lending list as the predicates about it need it. */
export interface ListEntryFacts {
  kind: LendingListKind;
  id: number;
  is_default: boolean;
}

export interface LoanFacts {
  id: number;
  borrower_id: number;
  returned_at: string | null;
}

/**
 * Whose loans' events a caller's change feed shows: everyone's (librarians), one borrower's (a member,
 * their own), or none (anonymous readers). Catalogue events go to whoever may read the catalogue.
 */
export type LoanEventScope = { loansOf: 'everyone' } | { loansOf: 'nobody' } | { loansOf: 'borrower'; id: number };

/** The rules, and the clock that says when a loan is overdue (the same one the circulation steps read). */
export function createPolicy(rules: AccessPolicy, clock: Clock, currency: string) {
  const signedIn = (caller: Caller): caller is SignedIn => caller.kind === 'user';
  const isLibrarian = (caller: Caller) => signedIn(caller) && caller.role === 'librarian';
  /** Librarians only: 401 for the anonymous, 403 for members. */
  const librarian = (caller: Caller, what: string): Decision =>
    !signedIn(caller)
      ? refuse(() => new Unauthorized())
      : isLibrarian(caller)
        ? allowed
        : refuse(() => new Forbidden(`only librarians may ${what}`));
  /** The user themselves or a librarian; to anyone else the thing does not exist. */
  const selfOrLibrarian = (caller: Caller, userId: number, hidden: () => CatalogueError): Decision =>
    !signedIn(caller)
      ? refuse(() => new Unauthorized())
      : isLibrarian(caller) || caller.id === userId
        ? allowed
        : refuse(hidden);

  /** Why what a borrower owes stops them borrowing or renewing, if it does. */
  const owes = (balance: number): string | undefined => fineLimitReason(money(balance, currency), rules.fineLimit);

  return {
    rules,
    /** The library's currency: every amount of an account is in its minor units. */
    currency,
    /** A loan's status now, by the app's clock: what its document says and what renewing it is decided on. */
    loanStatus: (loan: Pick<Loan, 'returned_at' | 'due_at'> & Partial<Pick<Loan, 'lost_at'>>): LoanStatus =>
      loanStatus(loan, clock.now()),
    /** Books, authors and the root: public unless the operator closed them. */
    read: (caller: Caller): Decision =>
      rules.publicReads || signedIn(caller) ? allowed : refuse(() => new Unauthorized()),
    /** Create or change books and authors. */
    manageCatalogue: (caller: Caller): Decision => librarian(caller, 'change the catalogue'),
    /** Import a file of records into the catalogue: a change of the catalogue, in bulk. */
    importRecords: (caller: Caller): Decision => librarian(caller, 'import records'),
    /** A book with loan or hold history stays: the history refers to it. */
    deleteBook: (caller: Caller, book: BookFacts): Decision => {
      const decision = librarian(caller, 'change the catalogue');
      if (!decision.allowed) return decision;
      return book.hasLoans ? refuse(() => bookHasLoans(book.id)) : allowed;
    },
    /** An author with books cannot be deleted: their books would point at nobody. */
    deleteAuthor: (caller: Caller, author: AuthorFacts): Decision => {
      const decision = librarian(caller, 'change the catalogue');
      if (!decision.allowed) return decision;
      return author.hasBooks ? refuse(() => authorStillHasBooks(author.id)) : allowed;
    },
    /**
     * Borrow a copy of a book, for oneself or (librarians) for `borrowerId`. For oneself: a copy on the
     * shelf, or the one set aside for one's ready hold, and not a second copy of a book one has. For
     * someone else, a librarian needs a copy on the shelf or set aside; whether it is that borrower's is
     * the lending transaction's to check. Members are held to the cap on active loans; a librarian
     * lending on someone's behalf has the cap checked in the lending transaction.
     * Without `borrowerId` (the control, before anyone is named): a member borrows for themselves; a
     * librarian may if they could borrow it themselves or lend it to someone.
     */
    borrow: (caller: Caller, book: BookFacts, borrowerId?: number, branchId?: number): Decision => {
      if (!signedIn(caller)) return refuse(() => new Unauthorized());
      if (branchId !== undefined && !isLibrarian(caller)) {
        return refuse(
          () => new Forbidden('a member borrows at the copy\u2019s home branch: only librarians name `branch_id`'),
        );
      }
      if (borrowerId === undefined && isLibrarian(caller)) {
        const own = borrowFor(caller, book, caller.id);
        return own.allowed || book.copies_available + book.copies_ready > 0 ? allowed : own;
      }
      return borrowFor(caller, book, borrowerId ?? caller.id);
    },
    /**
     * Join the queue for a book none of whose copies is on the shelf: once per book, not for a book one
     * has on loan, and up to the cap on open holds.
     */
    hold: (caller: Caller, book: BookFacts): Decision => {
      if (!signedIn(caller)) return refuse(() => new Unauthorized());
      if (book.copies_available > 0) return refuse(() => copyOnShelf(book.id));
      if (book.mine?.on_loan) return refuse(() => alreadyBorrowed(book.id));
      if (book.mine?.hold) return refuse(() => alreadyHeld(book.id, book.mine?.hold?.id as number));
      if (caller.openHolds >= rules.maxHolds) return refuse(() => holdCapReached(rules.maxHolds));
      const notTaken = book.holding && holdRefusalReason(book.holding);
      return notTaken ? refuse(() => holdsNotTaken(book.id, notTaken)) : allowed;
    },
    /** A book's queue of holds: librarians. */
    seeBookHolds: (caller: Caller): Decision => librarian(caller, 'see a book\u2019s queue of holds'),
    seeHold: (caller: Caller, hold: Pick<Hold, 'id' | 'borrower_id'>): Decision =>
      selfOrLibrarian(caller, hold.borrower_id, () => new NotFound(`hold ${hold.id} not found`)),
    /** Its borrower cancels an open hold, or a librarian does. */
    cancelHold: (caller: Caller, hold: Pick<Hold, 'id' | 'borrower_id' | 'status'>): Decision => {
      const decision = selfOrLibrarian(caller, hold.borrower_id, () => new NotFound(`hold ${hold.id} not found`));
      if (!decision.allowed) return decision;
      return holdIsOpen(hold) ? allowed : refuse(() => holdEnded(hold.id, hold.status));
    },
    /**
     * Its borrower or a librarian moves a waiting hold's pickup; once a copy is sent to it or set aside for it,
     * the branch is fixed.
     */
    changePickup: (caller: Caller, hold: Pick<Hold, 'id' | 'borrower_id' | 'status'>): Decision => {
      const decision = selfOrLibrarian(caller, hold.borrower_id, () => new NotFound(`hold ${hold.id} not found`));
      if (!decision.allowed) return decision;
      return hold.status === 'waiting' ? allowed : refuse(() => pickupFixed(hold.id, hold.status));
    },
    /**
     * Renew an active loan that is not overdue, renewed fewer times than the lending rules allow (decided
     * again now when `decision` is given, else as the loan was made), of a book nobody holds: its borrower
     * or a librarian.
     */
    renewLoan: (caller: Caller, loan: RenewableLoan): Decision => {
      const decision = selfOrLibrarian(caller, loan.borrower_id, () => new NotFound(`loan ${loan.id} not found`));
      if (!decision.allowed) return decision;
      const status = loanStatus(loan, clock.now());
      if (status === 'returned') return refuse(() => loanAlreadyReturned(loan.id));
      if (status === 'overdue') return refuse(() => overdueNotRenewable(loan.id));
      if (status === 'lost') return refuse(() => lostNotRenewable(loan.id));
      const exhausted = loan.decision
        ? renewalRefusalReason(loan.decision, loan.renewals)
        : renewalLimitReason(loan.renewals, loan.renewals_allowed);
      if (exhausted) return refuse(() => renewalLimitReached(loan.id, exhausted));
      if (loan.book_held) return refuse(() => bookHeldByOthers(loan.book_id));
      const owed = owes(loan.borrower_balance);
      return owed ? refuse(() => overFineLimit(owed)) : allowed;
    },
    /** Withdraw a copy that is not on loan: librarians. */
    withdrawCopy: (caller: Caller, copy: Pick<Copy, 'id' | 'status'>): Decision => {
      const decision = librarian(caller, 'change the catalogue');
      if (!decision.allowed) return decision;
      if (copy.status === 'withdrawn') return refuse(() => copyWithdrawn(copy.id));
      return copy.status === 'on_loan' ? refuse(() => copyOnLoan(copy.id)) : allowed;
    },
    /** Receive a copy in transit at the branch it was going to: librarians, only while it is in transit. */
    receiveCopy: (caller: Caller, copy: Pick<Copy, 'id' | 'status' | 'transit_to_branch_id'>): Decision => {
      const decision = librarian(caller, 'receive copies');
      if (!decision.allowed) return decision;
      return copyInTransit(copy) ? allowed : refuse(() => copyNotInTransit(copy.id, copy.status));
    },
    /** The circulation desk (a patron's card, copies by barcode, check-in): librarians. */
    useDesk: (caller: Caller): Decision => librarian(caller, 'use the circulation desk'),
    /** Lending on someone else's behalf is a librarian's (offered as the `borrower_id` field). */
    lendForOthers: (caller: Caller): boolean => isLibrarian(caller),
    listLoans: (caller: Caller): Decision => (signedIn(caller) ? allowed : refuse(() => new Unauthorized())),
    /** Everyone sees all loans only if a librarian; members see their own. */
    seesAllLoans: (caller: Caller): boolean => isLibrarian(caller),
    seeLoan: (caller: Caller, loan: LoanFacts): Decision =>
      selfOrLibrarian(caller, loan.borrower_id, () => new NotFound(`loan ${loan.id} not found`)),
    returnLoan: (caller: Caller, loan: LoanFacts): Decision => {
      const decision = selfOrLibrarian(caller, loan.borrower_id, () => new NotFound(`loan ${loan.id} not found`));
      if (!decision.allowed) return decision;
      return loan.returned_at === null ? allowed : refuse(() => loanAlreadyReturned(loan.id));
    },
    /** Which loan events the feed shows: those of the loans `seeLoan` lets the caller read. */
    loanEvents: (caller: Caller): LoanEventScope =>
      !signedIn(caller)
        ? { loansOf: 'nobody' }
        : isLibrarian(caller)
          ? { loansOf: 'everyone' }
          : { loansOf: 'borrower', id: caller.id },
    manageUsers: (caller: Caller): Decision => librarian(caller, 'manage users'),
    /** An account: its user's and librarians'; to anyone else the user does not exist. */
    seeAccount: (caller: Caller, userId: number): Decision =>
      selfOrLibrarian(caller, userId, () => new NotFound(`user ${userId} not found`)),
    /** The notices sent (or not) to a user: librarians, who answer for them at the desk. */
    seeNotices: (caller: Caller): Decision => librarian(caller, 'read the notices sent to users'),
    /** Record a payment or a manual charge: librarians, at the desk. */
    manageAccounts: (caller: Caller): Decision => librarian(caller, 'record payments and charges'),
    /** Waive what is left of a charge: librarians, while some of it is not waived. */
    waiveCharge: (caller: Caller, charge: WaivableCharge): Decision => {
      const decision = librarian(caller, 'waive charges');
      if (!decision.allowed) return decision;
      return isWaivable(charge) ? allowed : refuse(() => chargeNotWaivable(charge));
    },
    /** Branches: everyone signed in reads them (a member picks where to collect a hold). */
    seeBranches: (caller: Caller): Decision => (signedIn(caller) ? allowed : refuse(() => new Unauthorized())),
    /** Patron categories, item types and the rules matrix: librarians read and change them; branches too. */
    manageLending: (caller: Caller): Decision => librarian(caller, 'manage the lending rules'),
    /** An entry of a list goes unless it is the list's default (being in use, the database refuses). */
    deleteListEntry: (caller: Caller, entry: ListEntryFacts): Decision => {
      const decision = librarian(caller, 'manage the lending rules');
      if (!decision.allowed) return decision;
      return entry.is_default ? refuse(() => defaultEntryStays(entry.kind, entry.id)) : allowed;
    },
    /** A rule goes unless it is the rule of any × any × any, where every value ends. */
    deleteLoanRule: (caller: Caller, rule: { id: number; isDefault: boolean }): Decision => {
      const decision = librarian(caller, 'manage the lending rules');
      if (!decision.allowed) return decision;
      return rule.isDefault ? refuse(defaultRuleStays) : allowed;
    },
    /** A browser signs in by exchanging a token for a session cookie; only while not signed in. */
    signIn: (caller: Caller): Decision =>
      signedIn(caller) ? refuse(() => new Conflict('already signed in; sign out first')) : allowed,
    /** Signing out ends a browser session; a bearer token is not a session. */
    signOut: (caller: Caller): Decision =>
      signedIn(caller) && caller.via === 'session' ? allowed : refuse(() => new Conflict('there is no session to end')),
    seeUser: (caller: Caller, userId: number): Decision =>
      selfOrLibrarian(caller, userId, () => new NotFound(`user ${userId} not found`)),
    /** A user's PIN: their own, or anyone's for a librarian; to anyone else the user does not exist. */
    setPin: (caller: Caller, userId: number): Decision =>
      selfOrLibrarian(caller, userId, () => new NotFound(`user ${userId} not found`)),
    /** Remove a user's PIN (their card then signs in no more, until a PIN is set): librarians, while there is one. */
    removePin: (caller: Caller, user: { id: number; pin_set: boolean }): Decision => {
      const decision = librarian(caller, 'remove PINs');
      if (!decision.allowed) return decision;
      return user.pin_set ? allowed : refuse(() => new Conflict(`user ${user.id} has no PIN to remove`));
    },
    /** See a card's lock and its wrong PINs counted: librarians, who answer for it at the desk. */
    seePinLock: (caller: Caller): Decision => librarian(caller, 'see a card\u2019s lock'),
    /** A card's lock as it stands now, by the app's clock (the one sign-ins are counted by). */
    pinLock: (user: PinRecord): PinLock => pinLockAt(user, clock.now()),
    /** Clear a card's lock and its count of wrong PINs: librarians, while there is either now. */
    unlockPin: (caller: Caller, user: { id: number } & PinRecord): Decision => {
      const decision = librarian(caller, 'unlock cards');
      if (!decision.allowed) return decision;
      return pinLockHeld(pinLockAt(user, clock.now()))
        ? allowed
        : refuse(() => new Conflict(`the card of user ${user.id} is not locked and has no wrong PIN counted`));
    },
    /**
     * Whether changing this user's PIN asks for the PIN it replaces: a patron's own does (a session left open
     * must not let someone else take the card over), a librarian's setting or resetting it does not.
     */
    pinChangeNeedsCurrent: (caller: Caller, user: { id: number; pin_set: boolean }): boolean =>
      !isLibrarian(caller) && user.pin_set,
    /** Tokens: one's own, or anyone's for a librarian. */
    manageTokens: (caller: Caller, userId: number): Decision => ownTokens(caller, userId),
    /** One more token, while the user holds fewer than the cap (the database enforces it against races). */
    createToken: (caller: Caller, userId: number, held: number): Decision => {
      const decision = ownTokens(caller, userId);
      if (!decision.allowed) return decision;
      return held >= MAX_TOKENS_PER_USER ? refuse(tooManyTokens) : allowed;
    },
  };

  /** Borrowing for one named borrower (the caller themselves, or someone a librarian lends to). */
  function borrowFor(caller: SignedIn, book: BookFacts, borrowerId: number): Decision {
    const forSelf = borrowerId === caller.id;
    if (!forSelf && !isLibrarian(caller)) return refuse(() => new Forbidden('members borrow for themselves only'));
    if (forSelf && book.mine?.on_loan) return refuse(() => alreadyBorrowed(book.id));
    // Someone else's balance is checked in the lending transaction, under their lock, as their cap is.
    const owed = forSelf ? owes(caller.balance) : undefined;
    if (owed) return refuse(() => overFineLimit(owed));
    const setAsideForCaller = forSelf && book.mine?.hold?.status === 'ready';
    const lendable = forSelf ? book.copies_available > 0 : book.copies_available + book.copies_ready > 0;
    if (!lendable && !setAsideForCaller) return refuse(() => noCopyAvailable(book.id, book.due_at));
    const refused = forSelf && book.lending && lendingRefusalReason(book.lending.decision, book.lending.loansInScope);
    return refused ? refuse(() => lendingRefused(refused)) : allowed;
  }

  function ownTokens(caller: Caller, userId: number): Decision {
    return selfOrLibrarian(caller, userId, () => new NotFound(`user ${userId} not found`));
  }
}

export type Policy = ReturnType<typeof createPolicy>;

/** A charge as waiving it is decided: its kind, and how much of it was waived already. */
export type WaivableCharge = Pick<AccountEntry, 'id' | 'kind' | 'amount' | 'waived'>;

function chargeNotWaivable(entry: WaivableCharge): CatalogueError {
  return isCharge(entry.kind)
    ? chargeSettled(entry.id)
    : new Conflict(`entry ${entry.id} is a ${entry.kind}, not a charge`);
}

/** Throws the refusal of a decision that does not allow the action. */
export function authorize(decision: Decision): void {
  if (!decision.allowed) throw decision.refusal;
}
