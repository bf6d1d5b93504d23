/**
 * @module My account: what a signed-in user sees of their own circulation on one page (their loans, holds
 * and charges), each read with the names a person reads it by.
 */
import type { AccountEntry } from './account.js';
import type { Hold } from './hold.js';
import type { LoanRecord, RenewableLoan } from './loan.js';
import type { Money } from './money.js';
import type { User } from './user.js';

/** Most recent charges the page shows; the account's own page has them all. */
export const MY_ACCOUNT_CHARGES = 10;

/** The user whose account it is, with their home branch's name and what they owe. */
export interface AccountHolder extends User {
  home_branch_name: string;
  balance: Money;
}

/** An active loan, with what deciding its renewal needs, its book's title and its copy's barcode. */
export interface CurrentLoan extends LoanRecord {
  title: string;
  barcode: string | null;
}

/** An open hold (waiting, in transit or ready), with its book's title and its pickup branch's name. */
export interface OpenHold extends Hold {
  title: string;
  pickup_branch_name: string;
}

/** A charge, with the title of the book whose loan it is for, if any. */
export interface RecentCharge extends AccountEntry {
  title: string | null;
}

export interface MyAccount {
  holder: AccountHolder;
  /** Due soonest first, each with the lending rules' decision on renewing it now. */
  loans: (CurrentLoan & Pick<RenewableLoan, 'decision'>)[];
  /** Oldest first, as they were placed. */
  holds: OpenHold[];
  /** Newest first, at most `MY_ACCOUNT_CHARGES`; `more` when older ones exist. */
  charges: { entries: RecentCharge[]; more: boolean };
}
