/** @module Renders a loan: its dates and status, the book, copy and borrower, and `return`/`renew` while allowed. */
import { offered } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import { renewLoan, returnLoan } from '../affordances/loans.js';
import type { Loan, RenewableLoan } from '../domain/loan.js';
import type { Control, Resource } from '../hypermedia/model.js';
import { pick } from './pick.js';

export interface LoanRenderOptions {
  fields?: string[] | undefined;
  asItem?: boolean;
}

export function renderLoan(loan: Loan | RenewableLoan, ctx: RenderContext, options: LoanRenderOptions = {}): Resource {
  const { uris } = ctx;
  const href = uris.loan(loan.id);
  return {
    kind: 'loan',
    state: pick(
      {
        id: loan.id,
        book_id: loan.book_id,
        copy_id: loan.copy_id,
        borrower_id: loan.borrower_id,
        borrowed_at: loan.borrowed_at,
        due_at: loan.due_at,
        returned_at: loan.returned_at,
        lost_at: loan.lost_at,
        renewals: loan.renewals,
        status: ctx.policy.loanStatus(loan),
      },
      options.fields,
    ),
    links: [
      { rel: 'self', href },
      { rel: 'book', href: uris.book(loan.book_id) },
      { rel: 'copy', href: uris.copy(loan.copy_id) },
      { rel: 'borrower', href: uris.user(loan.borrower_id) },
      { rel: 'explain', href: uris.loanExplain(loan.id), title: 'Why it has its terms' },
      { rel: 'collection', href: uris.firstPages.loans },
    ],
    controls: options.asItem ? [] : loanControls(loan, ctx),
  };
}

/** `renew` needs to know whether anyone holds the book: offered from a loan read with that fact. */
function loanControls(loan: Loan | RenewableLoan, ctx: RenderContext): Control[] {
  const controls = offered(ctx, loan, [returnLoan]);
  if ('book_held' in loan) controls.push(...offered(ctx, loan, [renewLoan]));
  return controls;
}
