/** @module A copy: reading it, and withdrawing it. A book's copies are listed and added under the book. */
import type { Hono } from 'hono';
import { withdrawCopy } from '../../affordances/copies.js';
import { withdrawCopy as markWithdrawn } from '../../db/queries/circulation.js';
import { findCopy } from '../../db/queries/copies.js';
import { Conflict } from '../../domain/errors.js';
import { paths } from '../../hypermedia/uris.js';
import { renderCopy } from '../../renderers/copy.js';
import { readJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { idParam } from '../params.js';
import { send } from '../respond.js';
import { route } from '../route.js';
import { notFound } from '../stored-resource.js';

export function copyRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    paths.copy,
    { GET: { summary: 'A copy of a book' }, PATCH: withdrawCopy },
    {
      async GET(c) {
        const id = idParam(c, 'id', 'copy');
        const ctx = c.get('ctx');
        const copy = await findCopy(c.get('database').db, { id });
        if (!copy) throw notFound('copy', id);
        return send(c, renderCopy(copy, ctx));
      },
      /** Withdrawing is the one change a copy takes: `{"status":"withdrawn"}`. */
      async PATCH(c) {
        const id = idParam(c, 'id', 'copy');
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const copy = await findCopy(db, { id });
        if (!copy) throw notFound('copy', id);
        withdrawCopy.authorize(ctx, copy);
        withdrawCopy.validate(await readJson(c));
        // Conditional on the copy not being lent meanwhile: the fresh state then says why not (lent, or
        // withdrawn by another request); gone with its book, it is not found.
        const withdrawn = await markWithdrawn(db, {
          id,
          holdDays: ctx.policy.rules.holdDays,
          at: c.get('clock').now(),
        });
        if (!withdrawn) {
          const fresh = await findCopy(db, { id });
          if (!fresh) throw notFound('copy', id);
          withdrawCopy.authorize(ctx, fresh);
          throw new Conflict(`copy ${id} could not be withdrawn; read it again`);
        }
        return send(c, renderCopy(withdrawn, ctx), { invalidates: [ctx.uris.book(withdrawn.book_id)] });
      },
    },
  );
}
