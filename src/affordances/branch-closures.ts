/**
 * @module The controls on a branch's closures: adding a closed date (which moves the loans due that day to
 * the next open day), deleting one (which moves nothing back). Librarians'.
 */
import { type BranchClosure, closureInputFields } from '../domain/branch-closures.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';

/** Closes a branch on a date: today or later, once per date. */
export const addClosure = affordance({
  name: 'create',
  path: paths.branchClosures,
  summary:
    'Close a branch on a date (today or later, in the library\u2019s time zone): loans due there that day move ' +
    'to the end of its next open day; the answer says how many (`moved_loans`)',
  body: { fields: closureInputFields, mode: 'create' },
  errors: [404, 409, 422],
  title: 'Close on a date',
  appears: 'on a branch\u2019s closures, for librarians',
  allows: ({ policy, caller }) => policy.manageLending(caller),
  href: ({ uris }, branch: { id: number }) => uris.branchClosures(branch.id),
});

/** Opens the date again for new loans; loans moved off it stay where they were moved. */
export const removeClosure = affordance<Pick<BranchClosure, 'id' | 'branch_id'>>({
  name: 'delete',
  path: paths.branchClosure,
  summary: 'Delete a closure: new loans may fall due that day again; loans moved off it stay where they are',
  title: 'Delete closure',
  appears: 'on a closure, for librarians',
  allows: ({ policy, caller }) => policy.manageLending(caller),
  href: ({ uris }, closure) => uris.branchClosure(closure.branch_id, closure.id),
});
