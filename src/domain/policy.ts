/**
 * @module Who may do what, in which state. Each rule is one predicate: renderers call it to decide
 * whether to offer a control, and routes call the same function to allow the request, so a control is
 * offered exactly when submitting it would be allowed.
 */
import { type CatalogueError, Conflict } from './errors.js';

/**
 * Who is making the request. The catalogue has no sign-in yet, so every caller is the public; the
 * predicates below already take the caller so that roles slot in without touching their users.
 */
export interface Caller {
  readonly kind: 'public';
}

export const publicCaller: Caller = { kind: 'public' };

/** An allowed action, or the error that refusing it answers with. */
export type Decision = { allowed: true } | { allowed: false; refusal: CatalogueError };

const allowed: Decision = { allowed: true };

/** What a decision about an author needs to know beyond the author's fields. */
export interface AuthorFacts {
  id: number;
  hasBooks: boolean;
}

export const policy = {
  createBook: (_caller: Caller): Decision => allowed,
  changeBook: (_caller: Caller): Decision => allowed,
  deleteBook: (_caller: Caller): Decision => allowed,
  createAuthor: (_caller: Caller): Decision => allowed,
  changeAuthor: (_caller: Caller): Decision => allowed,
  /** An author with books cannot be deleted: their books would point at nobody. */
  deleteAuthor: (_caller: Caller, author: AuthorFacts): Decision =>
    author.hasBooks ? { allowed: false, refusal: authorStillHasBooks(author.id) } : allowed,
};

/** The refusal to delete an author who has books; the database gives the same answer in a race. */
export function authorStillHasBooks(id: number): Conflict {
  return new Conflict(`author ${id} still has books; delete or reassign them first`);
}

/** Throws the refusal of a decision that does not allow the action. */
export function authorize(decision: Decision): void {
  if (!decision.allowed) throw decision.refusal;
}
