/**
 * @module A copy: reading it, withdrawing it (PATCH), moving it to another branch or item type (PUT), and
 * receiving it in transit (POST to its receipts). A book's copies are listed and added under the book.
 */
import type { Context, Hono } from 'hono';
import { changeCopy, receiveCopy, withdrawCopy } from '../../affordances/copies.js';
import { receiveCopy as markReceived, withdrawCopy as markWithdrawn } from '../../db/queries/circulation.js';
import { findCopy, updateCopyPlace } from '../../db/queries/copies.js';
import type { Copy } from '../../domain/copy.js';
import { Conflict } from '../../domain/errors.js';
import { paths } from '../../hypermedia/uris.js';
import { renderCopy } from '../../renderers/copy.js';
import { readJson, readOptionalJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { idParam } from '../params.js';
import { send } from '../respond.js';
import { route } from '../route.js';
import { notFound } from '../stored-resource.js';

export function copyRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    paths.copy,
    { GET: { summary: 'A copy of a book' }, PUT: changeCopy, PATCH: withdrawCopy },
    {
      async GET(c) {
        const copy = await copyIn(c);
        return send(c, renderCopy(copy, c.get('ctx')));
      },
      async PUT(c) {
        const copy = await copyIn(c);
        const ctx = c.get('ctx');
        changeCopy.authorize(ctx, copy);
        return place(c, copy, changeCopy.validate(await readJson(c)));
      },
      /** Withdrawing is the one change a PATCH makes: `{"status":"withdrawn"}`. */
      async PATCH(c) {
        const copy = await copyIn(c);
        const ctx = c.get('ctx');
        withdrawCopy.authorize(ctx, copy);
        withdrawCopy.validate(await readJson(c));
        const { db } = c.get('database');
        // Conditional on the copy not being lent meanwhile: the fresh state then says why not (lent, or
        // withdrawn by another request); gone with its book, it is not found.
        const withdrawn = await markWithdrawn(db, {
          id: copy.id,
          holdDays: ctx.policy.rules.holdDays,
          at: c.get('clock').now(),
        });
        if (!withdrawn) {
          const fresh = await findCopy(db, { id: copy.id });
          if (!fresh) throw notFound('copy', copy.id);
          withdrawCopy.authorize(ctx, fresh);
          throw new Conflict(`copy ${copy.id} could not be withdrawn; read it again`);
        }
        return send(c, renderCopy(withdrawn, ctx), { invalidates: [ctx.uris.book(withdrawn.book_id)] });
      },
    },
  );

  route(
    app,
    paths.copyReceipts,
    { POST: receiveCopy },
    {
      /** A receipt answers the copy received, at its own URI. */
      async POST(c) {
        const copy = await copyIn(c);
        const ctx = c.get('ctx');
        receiveCopy.authorize(ctx, copy);
        receiveCopy.validate(await readOptionalJson(c));
        const { db } = c.get('database');
        const received = await markReceived(db, {
          id: copy.id,
          holdDays: ctx.policy.rules.holdDays,
          at: c.get('clock').now(),
        });
        if (!received) {
          // Received (or withdrawn) meanwhile: the fresh state says why not.
          const fresh = await findCopy(db, { id: copy.id });
          if (!fresh) throw notFound('copy', copy.id);
          receiveCopy.authorize(ctx, fresh);
          throw new Conflict(`copy ${copy.id} could not be received; read it again`);
        }
        const uri = ctx.uris.copy(copy.id);
        return send(c, renderCopy(received, ctx), {
          headers: { 'Content-Location': uri },
          invalidates: [uri, ctx.uris.book(received.book_id), ctx.uris.bookHolds(received.book_id)],
        });
      },
    },
  );
}

async function copyIn(c: Context<AppEnv>): Promise<Copy> {
  const id = idParam(c, 'id', 'copy');
  const copy = await findCopy(c.get('database').db, { id });
  if (!copy) throw notFound('copy', id);
  return copy;
}

/** Moves a copy to the branch and item type named (the others stay). */
async function place(c: Context<AppEnv>, copy: Copy, input: { branch_id?: number; item_type_id?: number }) {
  const ctx = c.get('ctx');
  const moved = await updateCopyPlace(c.get('database').db, {
    id: copy.id,
    branchId: input.branch_id,
    itemTypeId: input.item_type_id,
  });
  if (!moved) throw notFound('copy', copy.id);
  return send(c, renderCopy(moved, ctx), { invalidates: [ctx.uris.book(moved.book_id)] });
}
