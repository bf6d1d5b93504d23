/** @module Renders a loan: its dates and status, the book and borrower, and `return` while it is allowed. */
import { offered } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import { returnLoan } from '../affordances/loans.js';
import { type Loan, loanStatus } from '../domain/loan.js';
import type { Resource } from '../hypermedia/model.js';
import { firstPageOf } from './first-page.js';
import { pick } from './pick.js';

export interface LoanRenderOptions {
  fields?: string[] | undefined;
  asItem?: boolean;
}

export function renderLoan(loan: Loan, ctx: RenderContext, options: LoanRenderOptions = {}): Resource {
  const { uris } = ctx;
  const href = uris.loan(loan.id);
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
    controls: options.asItem ? [] : offered(ctx, loan, [returnLoan]),
  };
}
