/**
 * @module Renders a user's account (the balance and a page of its history, newest first), its payments, and
 * one entry: each charge links to its loan, a waiver to its charge; librarians get the account's controls.
 */

import { type AccountSubject, chargeAccount, recordPayment, waiveCharge } from '../affordances/accounts.js';
import { offered } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import type { Account, AccountEntry } from '../domain/account.js';
import { formatMoney } from '../domain/money.js';
import type { Link, Resource } from '../hypermedia/model.js';

/** A page of an account's history: its entries, and the entry before which the next page starts. */
export interface AccountHistory {
  entries: AccountEntry[];
  /** The cursor of the next (older) page, when there is one. */
  next: string | undefined;
}

export function renderAccount(account: Account, history: AccountHistory, ctx: RenderContext): Resource {
  const { uris } = ctx;
  const links: Link[] = [
    { rel: 'self', href: uris.userAccount(account.user_id) },
    { rel: 'up', href: uris.user(account.user_id), title: 'The account\u2019s user' },
    { rel: 'payment', href: uris.userPayments(account.user_id), title: 'Payments' },
  ];
  if (history.next !== undefined) {
    links.push({ rel: 'next', href: uris.userAccount(account.user_id, history.next), title: 'Older entries' });
  }
  return {
    kind: 'account',
    state: {
      user_id: account.user_id,
      balance: account.balance,
      formatted_balance: formatMoney(account.balance),
    },
    links,
    controls: offered<AccountSubject>(ctx, account, [recordPayment, chargeAccount]),
    items: history.entries.map((entry) => renderAccountEntry(entry, ctx, { asItem: true })),
  };
}

/** An account's payments, newest first, where a librarian records one. */
export function renderPayments(account: Account, payments: AccountEntry[], ctx: RenderContext): Resource {
  const { uris } = ctx;
  return {
    kind: 'payments',
    state: {
      user_id: account.user_id,
      balance: account.balance,
      formatted_balance: formatMoney(account.balance),
    },
    links: [
      { rel: 'self', href: uris.userPayments(account.user_id) },
      { rel: 'account', href: uris.userAccount(account.user_id), title: 'The whole account' },
      { rel: 'up', href: uris.user(account.user_id) },
    ],
    controls: offered<AccountSubject>(ctx, account, [recordPayment]),
    items: payments.map((entry) => renderAccountEntry(entry, ctx, { asItem: true })),
  };
}

/** One entry; a charge with something left to waive offers `waive` (in the account's list too). */
export function renderAccountEntry(entry: AccountEntry, ctx: RenderContext, options: { asItem?: boolean } = {}) {
  const { uris } = ctx;
  const links: Link[] = [{ rel: 'self', href: uris.accountEntry(entry.user_id, entry.id) }];
  if (!options.asItem) links.push({ rel: 'account', href: uris.userAccount(entry.user_id) });
  if (entry.loan_id !== null) links.push({ rel: 'loan', href: uris.loan(entry.loan_id) });
  if (entry.charge_id !== null) links.push({ rel: 'charge', href: uris.accountEntry(entry.user_id, entry.charge_id) });
  const resource: Resource = {
    kind: 'account-entry',
    state: {
      id: entry.id,
      kind: entry.kind,
      amount: entry.amount,
      formatted_amount: formatMoney(entry.amount),
      ...(entry.kind === 'payment' || entry.kind === 'waiver' ? {} : { waived: entry.waived }),
      loan_id: entry.loan_id,
      charge_id: entry.charge_id,
      reason: entry.reason,
      recorded_by: entry.recorded_by,
      created_at: entry.created_at,
    },
    links,
    controls: offered(ctx, entry, [waiveCharge]),
  };
  return resource;
}
