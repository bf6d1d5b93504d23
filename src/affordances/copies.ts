/** @module The controls on copies: adding one to a book, withdrawing one. */
import type { Book } from '../domain/book.js';
import { type Copy, copyInputFields, withdrawInputFields } from '../domain/copy.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';
import { inputFields } from './fields.js';

export const addCopy = affordance({
  name: 'create',
  path: paths.bookCopies,
  summary: 'Add a copy of a book (its barcode, if it has one, unique in the library)',
  body: { fields: copyInputFields, mode: 'create' },
  errors: [409, 422],
  title: (book: Pick<Book, 'id' | 'title'>) => `Add a copy of \u201c${book.title}\u201d`,
  appears: 'on a book\u2019s copies, for librarians',
  allows: ({ policy, caller }) => policy.manageCatalogue(caller),
  href: ({ uris }, book) => uris.bookCopies(book.id),
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
