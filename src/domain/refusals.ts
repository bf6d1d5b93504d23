/**
 * @module The catalogue's refusals that both the policy and the database answer: the policy before a
 * write, and the queries when the database's constraints refuse one that raced past the check.
 */
import { Conflict } from './errors.js';
import type { LendingListKind } from './lending-lists.js';
import { MAX_TOKENS_PER_USER } from './limits.js';

/** The refusal to delete an author who has books; the database gives the same answer in a race. */
export function authorStillHasBooks(id: number): Conflict {
  return new Conflict(`author ${id} still has books; delete or reassign them first`);
}

/** What a lending list's kind is called in messages: `patron category`. */
export function listEntryNoun(kind: LendingListKind): string {
  return kind.replace('-', ' ');
}

/** The refusal to delete a list's default: new users and copies get it. */
export function defaultEntryStays(kind: LendingListKind, id: number): Conflict {
  const noun = listEntryNoun(kind);
  return new Conflict(`${noun} ${id} is the default ${noun}; make another the default first (is_default: true)`);
}

/** The refusal to delete a list's entry that something names; the foreign keys give the same answer. */
export function entryInUse(kind: LendingListKind, id: number): Conflict {
  const noun = listEntryNoun(kind);
  const users = kind === 'item-type' ? 'copies' : kind === 'branch' ? 'copies, users' : 'users';
  return new Conflict(`${noun} ${id} is in use (${users}, lending rules or circulation name it): move them first`);
}

/** The refusal to delete the rule of any × any × any. */
export function defaultRuleStays(): Conflict {
  return new Conflict(
    'the rule of any patron category, any item type and any branch is where every value ends: change it, it cannot be deleted',
  );
}

export function tooManyTokens(): Conflict {
  return new Conflict(
    `a user holds at most ${MAX_TOKENS_PER_USER} tokens (browser sessions included): revoke one to create another`,
  );
}

export function bookHasLoans(id: number): Conflict {
  return new Conflict(`book ${id} has loan history, which the catalogue keeps; it cannot be deleted`);
}

/** The refusal to lend a book with no copy on the shelf: the way on is a hold. */
export function noCopyAvailable(id: number, dueAt: string | null): Conflict {
  const back = dueAt ? ` (the next is due back ${dueAt})` : '';
  return new Conflict(
    `no copy of book ${id} is available to borrow now${back}; place a hold (the book's \`hold\` control) to be next in line`,
  );
}

export function alreadyBorrowed(id: number): Conflict {
  return new Conflict(`you already have a copy of book ${id} on loan`);
}

export function copyOnShelf(id: number): Conflict {
  return new Conflict(`a copy of book ${id} is on the shelf: borrow it instead of holding it`);
}

export function alreadyHeld(bookId: number, holdId: number): Conflict {
  return new Conflict(`you already hold book ${bookId} (hold ${holdId})`);
}

export function holdCapReached(max: number): Conflict {
  return new Conflict(`the borrower already has ${max} open holds, the most one may have`);
}

export function holdEnded(id: number, status: string): Conflict {
  return new Conflict(`hold ${id} is ${status}: only a waiting or ready hold can be cancelled`);
}

/**
 * A hold whose copy is set aside or travelling keeps its pickup branch: the copy is already there or on its
 * way there. Cancelling and holding again joins the queue at its end.
 */
export function pickupFixed(id: number, status: string): Conflict {
  if (status === 'ready') {
    return new Conflict(`hold ${id} is ready: its copy is set aside at the pickup branch, so the branch cannot change`);
  }
  if (status === 'in_transit') {
    return new Conflict(
      `hold ${id} is in transit: its copy is on its way to the pickup branch, so the branch cannot change`,
    );
  }
  return new Conflict(`hold ${id} is ${status}: only a waiting hold's pickup branch can change`);
}

export function lostNotRenewable(id: number): Conflict {
  return new Conflict(`loan ${id} was declared lost: return the copy if it is found; a lost loan cannot be renewed`);
}

export function overdueNotRenewable(id: number): Conflict {
  return new Conflict(`loan ${id} is overdue: return it; an overdue loan cannot be renewed`);
}

/** `reason` is the lending rules' (`renewalRefusalReason`): how often, and by which rule. */
export function renewalLimitReached(id: number, reason: string): Conflict {
  return new Conflict(`loan ${id} has been ${reason}: return it when due`);
}

/** The lending rules refuse the loan (`lendingRefusalReason`): the copy is not lent, or the cap is reached. */
export function lendingRefused(reason: string): Conflict {
  return new Conflict(reason);
}

/** The lending rules take no hold on the book for this borrower (`holdRefusalReason`). */
export function holdsNotTaken(bookId: number, reason: string): Conflict {
  return new Conflict(`book ${bookId}: ${reason}`);
}

export function bookHeldByOthers(id: number): Conflict {
  return new Conflict(`someone is waiting for book ${id}: the loan cannot be renewed; return it when due`);
}

export function copyWithdrawn(id: number): Conflict {
  return new Conflict(`copy ${id} has already been withdrawn`);
}

export function copyOnLoan(id: number): Conflict {
  return new Conflict(`copy ${id} is on loan: it can be withdrawn once returned`);
}

export function copyNotInTransit(id: number, status: string): Conflict {
  return new Conflict(`copy ${id} is not in transit (it is ${status.replace('_', ' ')}): there is nothing to receive`);
}

export function loanAlreadyReturned(id: number): Conflict {
  return new Conflict(`loan ${id} has already been returned`);
}
