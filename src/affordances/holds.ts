/**
 * @module The controls on holds: placing one on a book (collected at a branch), cancelling one, moving a
 * waiting one's pickup to another branch.
 */
import { cancelInputFields, type Hold, holdInputFields, pickupInputFields } from '../domain/hold.js';
import { type BookSubject, bookFacts } from '../domain/policy.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';
import { branchOptions, inputFields } from './fields.js';

export const holdBook = affordance({
  name: 'hold',
  path: paths.bookHolds,
  summary:
    'Hold a book none of whose copies is on the shelf: join its queue, to collect the copy at a branch (your home branch unless named)',
  // An empty body or `{}` collects at the borrower's home branch.
  body: { fields: holdInputFields, mode: 'create', optional: true },
  errors: [409],
  title: 'Place a hold',
  appears:
    'on a book with no copy on the shelf, for a signed-in user who neither has it on loan nor holds it, below CATALOGUE_MAX_HOLDS',
  allows: ({ policy, caller }, book: BookSubject) => policy.hold(caller, bookFacts(book)),
  href: ({ uris }, book) => uris.bookHolds(book.id),
  fields: (ctx) => inputFields(holdInputFields, { choices: { pickup_branch_id: branchOptions(ctx) } }),
});

export const cancelHold = affordance({
  name: 'cancel',
  path: paths.hold,
  summary: 'Cancel a hold that is waiting, in transit or ready',
  body: { fields: cancelInputFields, mode: 'create' },
  errors: [409],
  title: 'Cancel this hold',
  appears: 'on a waiting, in-transit or ready hold, for its borrower and librarians',
  allows: ({ policy, caller }, hold: Hold) => policy.cancelHold(caller, hold),
  href: ({ uris }, hold) => uris.hold(hold.id),
  fields: () => inputFields(cancelInputFields, { values: { status: 'cancelled' } }),
});

/** Offered beside `cancel`; its branch's choices are the hold control's, its value the branch chosen now. */
export const changePickup = affordance({
  name: 'change_pickup',
  path: paths.holdPickup,
  summary: 'Collect a waiting hold at another branch; answers the hold',
  body: { fields: pickupInputFields, mode: 'create' },
  errors: [409, 422],
  title: 'Change the pickup branch',
  appears: 'on a waiting hold (no copy sent to it or set aside for it yet), for its borrower and librarians',
  allows: ({ policy, caller }, hold: Hold) => policy.changePickup(caller, hold),
  href: ({ uris }, hold) => uris.holdPickup(hold.id),
  fields: (ctx, hold) =>
    inputFields(pickupInputFields, {
      values: { pickup_branch_id: hold.pickup_branch_id },
      choices: { pickup_branch_id: branchOptions(ctx) },
    }),
});
