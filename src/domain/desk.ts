/**
 * @module The circulation desk: a patron named by their library card, a copy by its barcode, and where a
 * copy checked in goes next. What a desk may do is the policy's; lending and returning are circulation's.
 */

import { Conflict, UnprocessableEntity } from './errors.js';
import type { InputField } from './input.js';
import { BARCODE_MAX_LENGTH, CARD_NUMBER_MAX_LENGTH, INT4_MAX } from './limits.js';
import type { Loan } from './loan.js';
import type { Money } from './money.js';

const cardNumber = {
  name: 'card_number',
  type: 'string',
  required: true,
  maxLength: CARD_NUMBER_MAX_LENGTH,
  title: 'Library card',
} as const satisfies InputField;

const barcode = {
  name: 'barcode',
  type: 'string',
  required: true,
  maxLength: BARCODE_MAX_LENGTH,
  title: 'Item barcode',
} as const satisfies InputField;

/** Where the desk is: the librarian's home branch unless named. */
const deskBranch = {
  name: 'branch_id',
  type: 'integer',
  required: false,
  min: 1,
  max: INT4_MAX,
  title: 'At branch',
} as const satisfies InputField;

/** What reading a card at the desk takes: the card's number, as scanned (without it, the desk for nobody yet). */
export const findPatronFields = [{ ...cardNumber, required: false }] as const satisfies readonly InputField[];

/** What `POST /desk/checkouts` accepts: the patron's card, the copy's barcode, and the desk's branch. */
export const checkOutInputFields = [cardNumber, barcode, deskBranch] as const satisfies readonly InputField[];

/** What `POST /desk/checkins` accepts: the copy's barcode, and the desk's branch. */
export const checkInInputFields = [barcode, deskBranch] as const satisfies readonly InputField[];

/** A patron as the desk shows them once their card is read. */
export interface Patron {
  id: number;
  name: string;
  card_number: string;
  /** Active loans now. */
  loans_out: number;
  /** What they owe the library. */
  balance: Money;
}

/** A copy named by its barcode, with its book's title. */
export interface ScannedCopy {
  id: number;
  book_id: number;
  barcode: string;
  title: string;
  /** The book's author, whose list of books shows a loan of it. */
  author_id: number;
  withdrawn: boolean;
  /** Where it is travelling to, while in transit; null otherwise. */
  transit_to_branch_id: number | null;
}

/**
 * Where a copy checked in goes now, as settling placed it: back on the shelf at a branch, on the hold shelf
 * there for the patron whose hold it now serves, or in transit to a branch (for a hold there, or home).
 */
export interface Placement {
  goes_to: 'shelf' | 'hold_shelf' | 'in_transit';
  branch_id: number;
  branch_name: string;
  /** The hold it now serves (set aside, or travelling to its pickup branch); null when none. */
  hold_id: number | null;
  patron_id: number | null;
  patron_name: string | null;
}

/** A loan as its return answers it: where the copy goes now, the fine charged, the book's author. */
export type ReturnedLoan = Loan & { book_author_id: number; placement: Placement; fine: Money | null };

/**
 * What a check-in did: `returned` a loan; or, for a copy in transit that was lent to nobody, `received` it
 * at its destination (as `receive` does) or `sent_on` from a branch on its way, to where it was going.
 */
export type CheckInAction = 'returned' | 'received' | 'sent_on';

/** A copy in transit checked in, and where it goes now. */
export interface TransitCheckIn {
  action: Exclude<CheckInAction, 'returned'>;
  placement: Placement;
}

/** What a check-in did: a loan returned (with the fine charged), or a copy in transit received or sent on. */
export type CheckedIn = { action: 'returned'; returned: ReturnedLoan } | TransitCheckIn;

/** Where a checked-in copy goes now, as settling placed it. */
export function placementOfCheckIn(done: CheckedIn): Placement {
  return done.action === 'returned' ? done.returned.placement : done.placement;
}

/** What a check-in did and where the copy goes, in words, as the desk reads it out. */
export function checkInText(action: CheckInAction, placement: Placement): string {
  if (action === 'received') return `Received: ${placementText(placement)}`;
  if (action === 'sent_on') return `Not for this branch, send it on: ${placementText(placement)}`;
  return placementText(placement);
}

/** The placement in words, as the desk reads it out. */
export function placementText(placement: Placement): string {
  const forPatron = placement.patron_name === null ? '' : ` for ${placement.patron_name}`;
  if (placement.goes_to === 'hold_shelf') return `Hold shelf at ${placement.branch_name}${forPatron}`;
  if (placement.goes_to === 'in_transit') return `In transit to ${placement.branch_name}${forPatron}`;
  return `Shelf at ${placement.branch_name}`;
}

export const unknownCard = () => new UnprocessableEntity('card_number names no user', { card_number: 'names no user' });

export const unknownBarcode = () => new UnprocessableEntity('barcode names no copy', { barcode: 'names no copy' });

export const withdrawnCopyScanned = (copy: Pick<ScannedCopy, 'id' | 'barcode'>) =>
  new UnprocessableEntity(`copy ${copy.id} (barcode ${copy.barcode}) is withdrawn`, {
    barcode: 'names a withdrawn copy',
  });

export const nothingToCheckIn = (copy: Pick<ScannedCopy, 'id' | 'barcode'>) =>
  new Conflict(
    `copy ${copy.id} (barcode ${copy.barcode}) is neither on loan nor in transit: there is nothing to check in`,
  );
