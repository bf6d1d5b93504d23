/**
 * @module The controls on copies: adding one to a book, withdrawing one, moving one to a branch or item type,
 * receiving one in transit.
 */
import type { Book } from '../domain/book.js';
import { type Copy, copyInputFields, copyPlaceInputFields, withdrawInputFields } from '../domain/copy.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';
import type { RenderContext } from './context.js';
import { branchOptions, inputFields, itemTypeOptions } from './fields.js';

/** A copy's branch and item type are picked from those lists. */
const placeChoices = (ctx: RenderContext) => ({ branch_id: branchOptions(ctx), item_type_id: itemTypeOptions(ctx) });

export const addCopy = affordance({
  name: 'create',
  path: paths.bookCopies,
  summary:
    'Add a copy of a book (its barcode, if it has one, unique in the library; the default branch and item type unless named)',
  body: { fields: copyInputFields, mode: 'create' },
  errors: [409, 422],
  title: (book: Pick<Book, 'id' | 'title'>) => `Add a copy of \u201c${book.title}\u201d`,
  appears: 'on a book\u2019s copies, for librarians',
  allows: ({ policy, caller }) => policy.manageCatalogue(caller),
  href: ({ uris }, book) => uris.bookCopies(book.id),
  fields: (ctx) => inputFields(copyInputFields, { choices: placeChoices(ctx) }),
});

export const withdrawCopy = affordance({
  name: 'withdraw',
  path: paths.copy,
  summary: 'Withdraw a copy that is not on loan',
  body: { fields: withdrawInputFields, mode: 'create' },
  errors: [409],
  title: 'Withdraw this copy',
  appears: 'on a copy that is not on loan and not withdrawn, for librarians',
  allows: ({ policy, caller }, copy: Copy) => policy.withdrawCopy(caller, copy),
  href: ({ uris }, copy) => uris.copy(copy.id),
  fields: () => inputFields(withdrawInputFields, { values: { status: 'withdrawn' } }),
});

/** Moving a copy to another home branch, or making it another item type. */
export const changeCopy = affordance({
  name: 'update',
  path: paths.copy,
  summary: 'Change the fields of a copy that are sent: its home branch and item type',
  body: { fields: copyPlaceInputFields, mode: 'change' },
  errors: [422],
  title: 'Update copy',
  appears: 'on a copy, for librarians',
  allows: ({ policy, caller }) => policy.manageCatalogue(caller),
  href: ({ uris }, copy: Copy) => uris.copy(copy.id),
  fields: (ctx, copy) =>
    inputFields(copyPlaceInputFields, { values: copy, mode: 'change', choices: placeChoices(ctx) }),
});

/** Receiving a copy in transit where it was going: it is there, and a hold it travelled for is ready. */
export const receiveCopy = affordance({
  name: 'receive',
  path: paths.copyReceipts,
  summary:
    'Receive a copy in transit at the branch it was going to: it is there now, and a hold it travelled for is ready',
  // Nothing to send: the copy arrives where it was going.
  body: { fields: [], mode: 'create', optional: true },
  errors: [409],
  title: 'Receive this copy',
  appears: 'on a copy in transit, for librarians',
  allows: ({ policy, caller }, copy: Copy) => policy.receiveCopy(caller, copy),
  href: ({ uris }, copy) => uris.copyReceipts(copy.id),
});
