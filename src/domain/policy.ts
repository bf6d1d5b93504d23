/**
 * @module Who may do what, in which state. Each rule is one predicate: renderers call it to decide
 * whether to offer a control, and routes call the same function to allow the request, so a control is
 * offered exactly when submitting it would be allowed. The database backs the state rules up (unique
 * active loan, foreign keys), so a race between the check and the write cannot break them.
 */

import type { Availability, Book } from './book.js';
import { type CatalogueError, Conflict, Forbidden, NotFound, Unauthorized } from './errors.js';
import { MAX_TOKENS_PER_USER } from './limits.js';
import type { Role } from './user.js';

/** The library's rules, as the operator set them. */
export interface AccessPolicy {
  /** Books and authors can be read without a token (as a library's public catalogue can). */
  publicReads: boolean;
  /** Days from borrowing to the due date. */
  loanDays: number;
  /** Most active loans one member may hold; `undefined` for no limit (the operator's explicit choice). */
  maxActiveLoans: number | undefined;
}

/**
 * A lending library caps loans per member: without a cap one member could borrow the whole collection (a
 * member once borrowed all 515 available books in 1.5 s). Ten is a common public-library figure.
 */
export const DEFAULT_MAX_ACTIVE_LOANS = 10;

export const defaultAccessPolicy: AccessPolicy = {
  publicReads: true,
  loanDays: 14,
  maxActiveLoans: DEFAULT_MAX_ACTIVE_LOANS,
};

/** Who is making the request. */
export type Caller =
  | { readonly kind: 'anonymous' }
  | {
      readonly kind: 'user';
      readonly id: number;
      readonly name: string;
      readonly role: Role;
      /** Loans this user holds now; the per-member cap reads it. */
      readonly activeLoans: number;
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
const refuse = (refusal: () => CatalogueError): Decision => ({
  allowed: false,
  get refusal() {
    return refusal();
  },
});

/** What a decision about a book needs beyond its fields. */
export interface BookFacts {
  id: number;
  /** No active loan. */
  available: boolean;
  /** Due date of the active loan, if any. */
  due_at: string | null;
  /** Any loan ever: history keeps the book. */
  hasLoans: boolean;
}

/** The facts of a book as read (`hasLoans` unknown counts as true: history is kept unless known absent). */
export function bookFacts(book: Book & Availability & { hasLoans?: boolean }): BookFacts {
  return { id: book.id, available: book.available, due_at: book.due_at, hasLoans: book.hasLoans ?? true };
}

export interface AuthorFacts {
  id: number;
  hasBooks: boolean;
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

export function createPolicy(rules: AccessPolicy) {
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

  return {
    rules,
    /** Books, authors and the root: public unless the operator closed them. */
    read: (caller: Caller): Decision =>
      rules.publicReads || signedIn(caller) ? allowed : refuse(() => new Unauthorized()),
    /** Create or change books and authors. */
    manageCatalogue: (caller: Caller): Decision => librarian(caller, 'change the catalogue'),
    /** A book with loan history stays: the history refers to it. */
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
     * Borrow a book, for oneself or (librarians) for `borrowerId`. Members are held to the cap on active
     * loans; a librarian lending on someone's behalf has the cap checked in the lending transaction.
     */
    borrow: (caller: Caller, book: BookFacts, borrowerId?: number): Decision => {
      if (!signedIn(caller)) return refuse(() => new Unauthorized());
      const forSelf = borrowerId === undefined || borrowerId === caller.id;
      if (!forSelf && !isLibrarian(caller)) return refuse(() => new Forbidden('members borrow for themselves only'));
      if (!book.available) return refuse(() => bookOnLoan(book.id, book.due_at));
      if (forSelf && caller.role === 'member' && reachedCap(caller.activeLoans)) {
        return refuse(() => loanCapReached(rules.maxActiveLoans as number));
      }
      return allowed;
    },
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
    /** A browser signs in by exchanging a token for a session cookie; only while not signed in. */
    signIn: (caller: Caller): Decision =>
      signedIn(caller) ? refuse(() => new Conflict('already signed in; sign out first')) : allowed,
    /** Signing out ends a browser session; a bearer token is not a session. */
    signOut: (caller: Caller): Decision =>
      signedIn(caller) && caller.via === 'session' ? allowed : refuse(() => new Conflict('there is no session to end')),
    seeUser: (caller: Caller, userId: number): Decision =>
      selfOrLibrarian(caller, userId, () => new NotFound(`user ${userId} not found`)),
    /** Tokens: one's own, or anyone's for a librarian. */
    manageTokens: (caller: Caller, userId: number): Decision => ownTokens(caller, userId),
    /** One more token, while the user holds fewer than the cap (the database enforces it against races). */
    createToken: (caller: Caller, userId: number, held: number): Decision => {
      const decision = ownTokens(caller, userId);
      if (!decision.allowed) return decision;
      return held >= MAX_TOKENS_PER_USER ? refuse(tooManyTokens) : allowed;
    },
  };

  function ownTokens(caller: Caller, userId: number): Decision {
    return selfOrLibrarian(caller, userId, () => new NotFound(`user ${userId} not found`));
  }

  function reachedCap(activeLoans: number): boolean {
    return rules.maxActiveLoans !== undefined && activeLoans >= rules.maxActiveLoans;
  }
}

export type Policy = ReturnType<typeof createPolicy>;

/** Throws the refusal of a decision that does not allow the action. */
export function authorize(decision: Decision): void {
  if (!decision.allowed) throw decision.refusal;
}

/** The refusal to delete an author who has books; the database gives the same answer in a race. */
export function authorStillHasBooks(id: number): Conflict {
  return new Conflict(`author ${id} still has books; delete or reassign them first`);
}

export function tooManyTokens(): Conflict {
  return new Conflict(
    `a user holds at most ${MAX_TOKENS_PER_USER} tokens (browser sessions included): revoke one to create another`,
  );
}

export function bookHasLoans(id: number): Conflict {
  return new Conflict(`book ${id} has loan history, which the catalogue keeps; it cannot be deleted`);
}

export function bookOnLoan(id: number, dueAt: string | null): Conflict {
  const until = dueAt ? ` until ${dueAt}` : '';
  return new Conflict(`book ${id} is on loan${until}`);
}

export function loanCapReached(max: number): Conflict {
  return new Conflict(`the borrower already has ${max} active loans, the most a member may hold`);
}

export function loanAlreadyReturned(id: number): Conflict {
  return new Conflict(`loan ${id} has already been returned`);
}
