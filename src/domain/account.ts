/**
 * @module A user's account with the library: charges (overdue fines, lost items, a librarian's manual
 * charges) add to what they owe, payments and waivers take from it; the balance never goes below zero
 * (the database's CHECK). A balance over the fine limit (`CATALOGUE_FINE_LIMIT`) stops borrowing and
 * renewing (docs/access-and-loans.md, "Accounts").
 */
import { Conflict, UnprocessableEntity } from './errors.js';
import type { InputField } from './input.js';
import { INT4_MAX } from './limits.js';
import { formatMoney, type Money, money } from './money.js';

export const ACCOUNT_ENTRY_KINDS = ['overdue_fine', 'lost_item', 'manual', 'payment', 'waiver'] as const;
export type AccountEntryKind = (typeof ACCOUNT_ENTRY_KINDS)[number];

/** The kinds that add to the balance, and can be waived. */
export const CHARGE_KINDS: readonly AccountEntryKind[] = ['overdue_fine', 'lost_item', 'manual'];

export function isCharge(kind: AccountEntryKind): boolean {
  return CHARGE_KINDS.includes(kind);
}

/** One entry of an account's history, as the API shows it. */
export interface AccountEntry {
  id: number;
  user_id: number;
  kind: AccountEntryKind;
  /** Always positive: the kind says whether it adds to the balance or takes from it. */
  amount: Money;
  /** The loan a fine or a lost item's charge is for. */
  loan_id: number | null;
  /** The charge a waiver waives. */
  charge_id: number | null;
  /** Why (a waiver, a manual charge), or a payment's note. */
  reason: string | null;
  /** The librarian who recorded it; `null` for what the catalogue charged itself. */
  recorded_by: number | null;
  /** ISO 8601, UTC: business time when it was recorded. */
  created_at: string;
  /** Of a charge, how much of it has been waived. */
  waived: Money;
}

/** What is still owed of a charge: its amount less what was waived (payments go to the balance, not a charge). */
export function unwaived(entry: Pick<AccountEntry, 'amount' | 'waived'>): Money {
  return money(entry.amount.minor - entry.waived.minor, entry.amount.currency);
}

/** A charge that can still be waived: a charge with some of it not waived. */
export function isWaivable(entry: Pick<AccountEntry, 'kind' | 'amount' | 'waived'>): boolean {
  return isCharge(entry.kind) && unwaived(entry).minor > 0;
}

/** A user's account: what they owe now. A user with no entries owes nothing in the library's currency. */
export interface Account {
  user_id: number;
  balance: Money;
}

/** Longest reason or note an entry keeps (the table's CHECK says the same). */
export const REASON_MAX_LENGTH = 500;

/** What a payment takes: its amount in minor units, optionally its currency (the library's), and a note. */
export const paymentInputFields = [
  { name: 'amount', type: 'integer', required: true, min: 1, max: INT4_MAX, title: 'Amount paid (minor units)' },
  { name: 'currency', type: 'string', required: false, maxLength: 3, title: 'Currency (the library\u2019s)' },
  { name: 'note', type: 'string', required: false, maxLength: REASON_MAX_LENGTH, title: 'Note' },
] as const satisfies readonly InputField[];

/** What a waiver takes: how much (the rest of the charge unless given) and why. */
export const waiverInputFields = [
  {
    name: 'amount',
    type: 'integer',
    required: false,
    min: 1,
    max: INT4_MAX,
    title: 'Amount waived (minor units; what is left of the charge, up to the balance, if left out)',
  },
  { name: 'reason', type: 'string', required: true, maxLength: REASON_MAX_LENGTH, title: 'Reason' },
] as const satisfies readonly InputField[];

/** What a manual charge takes: how much and why. */
export const chargeInputFields = [
  { name: 'amount', type: 'integer', required: true, min: 1, max: INT4_MAX, title: 'Amount charged (minor units)' },
  { name: 'reason', type: 'string', required: true, maxLength: REASON_MAX_LENGTH, title: 'Reason' },
] as const satisfies readonly InputField[];

/** A currency sent with an amount must be the library's: amounts are never converted. */
export function checkCurrency(sent: string | undefined, currency: string): void {
  if (sent !== undefined && sent !== currency) {
    throw new UnprocessableEntity(`currency must be ${currency}, the library\u2019s: amounts are never converted`, {
      currency: `must be ${currency}`,
    });
  }
}

/** A text that must say something: blank is refused as missing. */
export function checkReason(reason: string, field: string): string {
  const trimmed = reason.trim();
  if (trimmed === '') throw new UnprocessableEntity(`${field} must not be blank`, { [field]: 'must not be blank' });
  return trimmed;
}

/** A payment or waiver larger than what is owed: refused, nothing recorded. */
export function exceedsBalance(kind: 'payment' | 'waiver', amount: Money, balance: Money): UnprocessableEntity {
  return new UnprocessableEntity(`${kind} of ${formatMoney(amount)} exceeds the balance ${formatMoney(balance)}`, {
    amount: `must be at most ${balance.minor}`,
  });
}

/** A waiver larger than what is left of its charge. */
export function exceedsCharge(amount: Money, left: Money, chargeId: number): UnprocessableEntity {
  return new UnprocessableEntity(
    `waiver of ${formatMoney(amount)} exceeds what is left of charge ${chargeId}, ${formatMoney(left)}`,
    { amount: `must be at most ${left.minor}` },
  );
}

/** A charge already waived in full: nothing left to waive. */
export function chargeSettled(chargeId: number): Conflict {
  return new Conflict(`charge ${chargeId} is waived in full: nothing is left to waive`);
}

/** The most a balance may reach before borrowing stops: minor units, or `none`. */
export type FineLimit = number | 'none';

/**
 * Why a borrower may not borrow or renew because of what they owe, or `undefined`: a balance over the limit
 * (reaching it exactly is still allowed). The one rule the policy (controls, first checks) and the borrow
 * transaction (under the borrower's lock) both ask.
 */
export function fineLimitReason(balance: Money, limit: FineLimit): string | undefined {
  if (limit === 'none' || balance.minor <= limit) return undefined;
  return `the balance ${formatMoney(balance)} is over the limit of ${formatMoney(money(limit, balance.currency))}: pay or have charges waived first`;
}

/** The refusal of a borrow or renewal for what the borrower owes. */
export function overFineLimit(reason: string): Conflict {
  return new Conflict(`not while ${reason}`);
}
