/**
 * @module The controls of the circulation desk: reading a patron's card, lending a copy to them by its
 * barcode, and checking a copy in by its barcode. Librarians only; the same predicate offers and allows.
 */
import { checkInInputFields, checkOutInputFields, findPatronFields, type Patron } from '../domain/desk.js';
import type { SignedIn } from '../domain/policy.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';
import type { RenderContext } from './context.js';
import { branchOptions, inputFields } from './fields.js';

const appears = 'on the circulation desk, for librarians';

/** The desk's branch: the librarian's home branch unless they name another. */
const deskValues = ({ caller }: RenderContext) => ({ branch_id: (caller as SignedIn).homeBranchId });

export const findPatron = affordance({
  name: 'find-patron',
  path: paths.desk,
  summary: 'The circulation desk; with `card_number`, for the patron whose library card it is',
  query: findPatronFields,
  errors: [422],
  title: 'Read a library card',
  appears,
  allows: ({ policy, caller }) => policy.useDesk(caller),
  href: ({ uris }) => uris.desk(),
});

/** Lending by card and barcode; at the desk of a patron whose card was read, their card is filled in. */
export const checkOut = affordance({
  name: 'check-out',
  path: paths.deskCheckouts,
  summary:
    'Lend the copy with `barcode` to the patron with `card_number`, at `branch_id` (the librarian\u2019s home branch unless named)',
  body: { fields: checkOutInputFields, mode: 'create' },
  errors: [409, 422],
  title: 'Check out',
  appears,
  allows: ({ policy, caller }) => policy.useDesk(caller),
  href: ({ uris }) => uris.deskCheckouts(),
  fields: (ctx, patron: Patron | undefined) =>
    inputFields(checkOutInputFields, {
      values: { ...deskValues(ctx), ...(patron && { card_number: patron.card_number }) },
      choices: { branch_id: branchOptions(ctx) },
    }),
});

export const checkIn = affordance({
  name: 'check-in',
  path: paths.deskCheckins,
  summary:
    'Return the copy with `barcode` at `branch_id` (the librarian\u2019s home branch unless named), or a copy in transit: received at its destination, sent on from elsewhere; where it goes now, and the fine charged',
  body: { fields: checkInInputFields, mode: 'create' },
  // Nothing is created: the answer is what the scan did (a loan returned, a copy received) and where it goes.
  status: 200,
  errors: [409, 422],
  title: 'Check in',
  appears,
  allows: ({ policy, caller }) => policy.useDesk(caller),
  href: ({ uris }) => uris.deskCheckins(),
  fields: (ctx) =>
    inputFields(checkInInputFields, { values: deskValues(ctx), choices: { branch_id: branchOptions(ctx) } }),
});
