/** @module The controls on accounts: recording a payment, waiving a charge, charging an account by hand. */
import { type AccountEntry, chargeInputFields, paymentInputFields, waiverInputFields } from '../domain/account.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';
import { inputFields } from './fields.js';

/** Whose account a control acts on. */
export interface AccountSubject {
  user_id: number;
}

export const recordPayment = affordance({
  name: 'create',
  path: paths.userPayments,
  summary: 'Record a payment on a user\u2019s account: the balance goes down by its amount, never below zero',
  body: { fields: paymentInputFields, mode: 'create' },
  errors: [404, 422],
  title: 'Record a payment',
  appears: 'on a user\u2019s account and its payments, for librarians',
  allows: ({ policy, caller }) => policy.manageAccounts(caller),
  href: ({ uris }, account: AccountSubject) => uris.userPayments(account.user_id),
  fields: ({ policy }) => inputFields(paymentInputFields, { values: { currency: policy.currency } }),
});

export const chargeAccount = affordance({
  name: 'charge',
  path: paths.userCharges,
  summary: 'Charge a user\u2019s account by hand (a damaged item, a replacement card), with the reason',
  body: { fields: chargeInputFields, mode: 'create' },
  errors: [404, 422],
  title: 'Charge this account',
  appears: 'on a user\u2019s account, for librarians',
  allows: ({ policy, caller }) => policy.manageAccounts(caller),
  href: ({ uris }, account: AccountSubject) => uris.userCharges(account.user_id),
});

export const waiveCharge = affordance({
  name: 'waive',
  path: paths.entryWaivers,
  summary:
    'Waive a charge or part of it, with the reason; without an amount, what is left of it, up to what is still owed',
  body: { fields: waiverInputFields, mode: 'create' },
  errors: [404, 409, 422],
  title: (charge: AccountEntry) => `Waive charge ${charge.id}`,
  appears: 'on a charge of an account with some of it not waived, for librarians',
  allows: ({ policy, caller }, charge) => policy.waiveCharge(caller, charge),
  href: ({ uris }, charge) => uris.entryWaivers(charge.user_id, charge.id),
});
