/** @module The controls on loans: returning and renewing one. */
import { type Loan, type RenewableLoan, returnInputFields } from '../domain/loan.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';
import { branchOptions, inputFields } from './fields.js';

export const returnLoan = affordance({
  name: 'return',
  path: paths.loan,
  summary: 'Return a loan, at a branch (the one that lent it unless named)',
  body: { fields: returnInputFields, mode: 'create' },
  errors: [409],
  title: 'Return this book',
  appears: 'on an active loan, for its borrower and librarians',
  allows: ({ policy, caller }, loan: Loan) => policy.returnLoan(caller, loan),
  href: ({ uris }, loan) => uris.loan(loan.id),
  // Its status is filled in, and the branch it is handed in at is the one that lent it unless changed: a
  // client may submit it as offered.
  fields: (ctx, loan) =>
    inputFields(returnInputFields, {
      values: { status: 'returned', branch_id: loan.branch_id },
      choices: { branch_id: branchOptions(ctx) },
    }),
});

export const renewLoan = affordance({
  name: 'renew',
  path: paths.loanRenewals,
  summary: 'Renew a loan: due the lending rules\u2019 renewal period from now',
  // Nothing to send: the due date is the library's, so an empty body or `{}`.
  body: { fields: [], mode: 'create', optional: true },
  errors: [409],
  title: 'Renew this loan',
  appears:
    'on an active loan that is not overdue, renewed fewer times than the lending rules allow (decided again now), of a book nobody holds; for its borrower and librarians',
  allows: ({ policy, caller }, loan: RenewableLoan) => policy.renewLoan(caller, loan),
  href: ({ uris }, loan) => uris.loanRenewals(loan.id),
});
