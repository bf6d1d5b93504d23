/**
 * @module A branch's closures: `/branches/{id}/closures` (everyone signed in reads them; librarians add a
 * closed date, which moves the loans due there that day) and `/branches/{id}/closures/{closure}`.
 */
import type { Context, Hono } from 'hono';
import { addClosure, removeClosure } from '../../affordances/branch-closures.js';
import {
  addClosure as closeBranch,
  deleteClosure,
  findClosure,
  listClosuresPage,
  streamClosures,
} from '../../db/queries/branch-closures.js';
import { findListEntry, lendingLists } from '../../db/queries/lending-lists.js';
import { type BranchClosure, closureDate } from '../../domain/branch-closures.js';
import { NotFound } from '../../domain/errors.js';
import type { StoredListEntry } from '../../domain/lending-lists.js';
import { parseListing } from '../../domain/listing.js';
import { closureListingSpec } from '../../domain/listings.js';
import { authorize } from '../../domain/policy.js';
import { firstPage, paths } from '../../hypermedia/uris.js';
import { closuresCollection, renderClosure } from '../../renderers/branch-closures.js';
import { readJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { sendListing } from '../listing.js';
import { idParam, queryParams } from '../params.js';
import { send, sendCreated, sendDeleted } from '../respond.js';
import { route } from '../route.js';
import { forgettingLendingRules } from './loan-rules.js';

/** The library's time zone: the day a closure closes begins and ends in it. */
export function branchClosureRoutes(app: Hono<AppEnv>, settings: { timeZone: string }): void {
  const { timeZone } = settings;
  route(
    app,
    paths.branchClosures,
    {
      GET: {
        summary: 'The dates a branch is closed, in date order (everyone signed in)',
        listing: closureListingSpec,
        errors: [401, 404],
      },
      POST: addClosure,
    },
    {
      async GET(c) {
        const ctx = c.get('ctx');
        const database = c.get('database');
        authorize(ctx.policy.seeBranches(ctx.caller));
        const branch = await branchOf(c);
        const params = queryParams(c);
        const listing = parseListing(closureListingSpec, { ...params, sort: params.sort ?? ['date'] });
        return sendListing(
          c,
          closureListingSpec,
          listing,
          closuresCollection(ctx, branch),
          {
            page: (paged) => listClosuresPage(database.db, paged, branch.id),
            stream: (all) => streamClosures(database, all, branch.id),
          },
          (closure: BranchClosure) => renderClosure(closure, ctx, { fields: listing.fields, asItem: true }),
        );
      },
      POST: forgettingLendingRules(async (c) => {
        const ctx = c.get('ctx');
        addClosure.authorize(ctx, { id: idParam(c, 'id', 'branch') });
        const branch = await branchOf(c);
        const input = addClosure.validate(await readJson(c));
        const date = closureDate(input.date, c.get('clock').now(), timeZone);
        const closure = await closeBranch(c.get('database').db, {
          branchId: branch.id,
          date,
          reason: input.reason,
          timeZone,
        });
        const { uris } = ctx;
        // The loans moved read their new due date; the list of closures has one more.
        return sendCreated(c, renderClosure(closure, ctx), uris.branchClosure(branch.id, closure.id), [
          uris.branchClosures(branch.id),
          uris.branchClosures(branch.id, firstPage),
          uris.loans(),
        ]);
      }),
    },
  );

  route(
    app,
    paths.branchClosure,
    { GET: { summary: 'A date a branch is closed (everyone signed in)', errors: [401, 404] }, DELETE: removeClosure },
    {
      async GET(c) {
        const ctx = c.get('ctx');
        authorize(ctx.policy.seeBranches(ctx.caller));
        const branchId = idParam(c, 'id', 'branch');
        const id = idParam(c, 'closure', 'closure');
        const closure = await findClosure(c.get('database').db, { branchId, id });
        if (!closure) throw new NotFound(`closure ${id} of branch ${branchId} not found`);
        return send(c, renderClosure(closure, ctx));
      },
      DELETE: forgettingLendingRules(async (c) => {
        const ctx = c.get('ctx');
        const branchId = idParam(c, 'id', 'branch');
        const id = idParam(c, 'closure', 'closure');
        removeClosure.authorize(ctx, { id, branch_id: branchId });
        if (!(await deleteClosure(c.get('database').db, { branchId, id }))) {
          throw new NotFound(`closure ${id} of branch ${branchId} not found`);
        }
        const { uris } = ctx;
        return sendDeleted(c, uris.branchClosures(branchId, firstPage), [uris.branchClosures(branchId)]);
      }),
    },
  );
}

/** The branch in the path; 404 when there is none. */
async function branchOf(c: Context<AppEnv>): Promise<StoredListEntry> {
  const id = idParam(c, 'id', 'branch');
  const branch = await findListEntry(c.get('database').db, lendingLists.branch, id);
  if (!branch) throw new NotFound(`branch ${id} not found`);
  return branch;
}
