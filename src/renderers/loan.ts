/** @module Renders a loan: its dates and status, the book and borrower, and `return` while it is allowed. */
import { type Loan, loanStatus, returnInputFields } from '../domain/loan.js';
import type { Control, Resource } from '../hypermedia/model.js';
import type { RenderContext } from './context.js';
import { inputFields } from './fields.js';
import { firstPageOf } from './first-page.js';
import { pick } from './pick.js';

export interface LoanRenderOptions {
  fields?: string[] | undefined;
  asItem?: boolean;
}

export function renderLoan(loan: Loan, ctx: RenderContext, options: LoanRenderOptions = {}): Resource {
  const { uris, caller, policy } = ctx;
  const href = uris.loan(loan.id);
  const controls: Control[] = [];
  if (!options.asItem && policy.returnLoan(caller, loan).allowed) {
    controls.push({
      name: 'return',
      href,
      method: 'PATCH',
      title: 'Return this book',
      contentType: 'application/json',
      fields: inputFields(returnInputFields, { values: { status: 'returned' } }),
    });
  }
  return {
    kind: 'loan',
    state: pick(
      {
        id: loan.id,
        book_id: loan.book_id,
        borrower_id: loan.borrower_id,
        borrowed_at: loan.borrowed_at,
        due_at: loan.due_at,
        returned_at: loan.returned_at,
        status: loanStatus(loan),
      },
      options.fields,
    ),
    links: [
      { rel: 'self', href },
      { rel: 'book', href: uris.book(loan.book_id) },
      { rel: 'borrower', href: uris.user(loan.borrower_id) },
      { rel: 'collection', href: firstPageOf(uris.loans) },
    ],
    controls,
  };
}
