/**
 * @module Holds: reading one, cancelling it, moving a waiting one's pickup, and a user's holds. A book's queue
 * is listed under the book.
 */
import type { Context, Hono } from 'hono';
import type { RenderContext } from '../../affordances/context.js';
import { cancelHold, changePickup } from '../../affordances/holds.js';
import type { Db } from '../../db/client.js';
import { cancelHold as markCancelled } from '../../db/queries/circulation.js';
import { changeHoldPickup } from '../../db/queries/hold-pickup.js';
import { findHold, listHoldsPage, streamHolds } from '../../db/queries/holds.js';
import { decideHold, findBorrower } from '../../db/queries/lending-decisions.js';
import { findUser } from '../../db/queries/users.js';
import { Conflict } from '../../domain/errors.js';
import type { Hold } from '../../domain/hold.js';
import { holdRefusalReason } from '../../domain/lending-rules.js';
import { parseListing } from '../../domain/listing.js';
import { holdListingSpec } from '../../domain/listings.js';
import { authorize } from '../../domain/policy.js';
import { holdsNotTaken } from '../../domain/refusals.js';
import { paths } from '../../hypermedia/uris.js';
import { userHoldsCollection } from '../../renderers/collections.js';
import { renderHold } from '../../renderers/hold.js';
import { readJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { sendListing } from '../listing.js';
import { idParam, queryParams } from '../params.js';
import { send } from '../respond.js';
import { route } from '../route.js';
import { notFound } from '../stored-resource.js';

export function holdRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    paths.hold,
    { GET: { summary: 'A hold' }, PATCH: cancelHold },
    {
      async GET(c) {
        const hold = await visibleHold(c);
        return send(c, renderHold(hold, c.get('ctx')));
      },
      /** Cancelling is the one change a hold takes: `{"status":"cancelled"}`. */
      async PATCH(c) {
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const hold = await visibleHold(c);
        cancelHold.authorize(ctx, hold);
        cancelHold.validate(await readJson(c));
        const at = c.get('clock').now();
        const cancelled = await markCancelled(db, { id: hold.id, holdDays: ctx.policy.rules.holdDays, at });
        // Ended meanwhile (fulfilled, expired, cancelled by another request): the fresh state says so.
        if (!cancelled) cancelHold.authorize(ctx, (await findHold(db, { id: hold.id, at })) ?? hold);
        const current = cancelled ?? hold;
        return send(c, renderHold(current, ctx), {
          invalidates: [ctx.uris.book(current.book_id), ctx.uris.bookHolds(current.book_id)],
        });
      },
    },
  );

  route(
    app,
    paths.holdPickup,
    { PUT: changePickup },
    {
      /** `{"pickup_branch_id": n}` while the hold waits; answers the hold, at its own URI. */
      async PUT(c) {
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const hold = await visibleHold(c);
        changePickup.authorize(ctx, hold);
        const input = changePickup.validate(await readJson(c));
        await refuseHoldsNotTaken(db, hold, input.pickup_branch_id);
        const at = c.get('clock').now();
        const changed = await changeHoldPickup(db, { id: hold.id, pickupBranchId: input.pickup_branch_id, at });
        if (!changed) {
          // No longer waiting (a copy came back for it, or it ended): the fresh state says why.
          changePickup.authorize(ctx, (await findHold(db, { id: hold.id, at })) ?? hold);
          throw new Conflict(`hold ${hold.id} could not be changed; read it again`);
        }
        const uri = ctx.uris.hold(changed.id);
        return send(c, renderHold(changed, ctx), {
          headers: { 'Content-Location': uri },
          invalidates: [uri, ctx.uris.bookHolds(changed.book_id), ...borrowersPage(ctx, changed)],
        });
      },
    },
  );

  route(
    app,
    paths.userHolds,
    { GET: { summary: 'List the holds of a user', listing: holdListingSpec } },
    {
      async GET(c) {
        const ctx = c.get('ctx');
        const database = c.get('database');
        const id = idParam(c, 'id', 'user');
        authorize(ctx.policy.seeUser(ctx.caller, id));
        const user = await findUser(database.db, { id });
        if (!user) throw notFound('user', id);
        const listing = parseListing(holdListingSpec, queryParams(c));
        const at = c.get('clock').now();
        return sendListing(
          c,
          holdListingSpec,
          listing,
          userHoldsCollection(ctx, user),
          {
            page: (paged) => listHoldsPage(database.db, paged, { borrowerId: id }, at),
            stream: (all) => streamHolds(database, all, { borrowerId: id }, at),
          },
          (hold: Hold) => renderHold(hold, ctx, { fields: listing.fields, asItem: true }),
        );
      },
    },
  );
}

/** My account, when the caller is the hold's borrower: their page shows the hold. */
function borrowersPage({ caller, uris }: RenderContext, hold: Hold): string[] {
  return caller.kind === 'user' && caller.id === hold.borrower_id ? [uris.me()] : [];
}

/** The hold, if the caller may see it: its borrower and librarians; 404 to anyone else. */
async function visibleHold(c: Context<AppEnv>): Promise<Hold> {
  const id = idParam(c, 'id', 'hold');
  const ctx = c.get('ctx');
  const hold = await findHold(c.get('database').db, { id, at: c.get('clock').now() });
  if (!hold) throw notFound('hold', id);
  authorize(ctx.policy.seeHold(ctx.caller, hold));
  return hold;
}

/**
 * A hold moved to another pickup branch is decided again there, as placing it there would be (the loan
 * happens where it is collected): 409 in the same words when the rules take no hold of it at that branch.
 */
async function refuseHoldsNotTaken(db: Db, hold: Hold, pickupBranchId: number): Promise<void> {
  const borrower = await findBorrower(db, { id: hold.borrower_id });
  if (!borrower) return;
  const reason = holdRefusalReason(await decideHold(db, borrower, hold.book_id, true, pickupBranchId));
  if (reason) throw holdsNotTaken(hold.book_id, reason);
}
