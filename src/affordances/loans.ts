/** @module The control on loans: returning one. */
import { type Loan, returnInputFields } from '../domain/loan.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';
import { inputFields } from './fields.js';

export const returnLoan = affordance<Loan>({
  name: 'return',
  path: paths.loan,
  summary: 'Return a loan',
  body: { fields: returnInputFields, mode: 'create' },
  errors: [409],
  title: 'Return this book',
  appears: 'on an active loan, for its borrower and librarians',
  allows: ({ policy, caller }, loan) => policy.returnLoan(caller, loan),
  href: ({ uris }, loan) => uris.loan(loan.id),
  // The only value it takes is filled in: a client submits it as offered.
  fields: () => inputFields(returnInputFields, { values: { status: 'returned' } }),
});
