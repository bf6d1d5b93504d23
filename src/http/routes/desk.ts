/**
 * @module The circulation desk: the check-out desk (`/desk`, a patron's card read with `?card_number=`), lending
 * by card and barcode (`POST /desk/checkouts`), the check-in desk and checking in by barcode
 * (`/desk/checkins`: a loan returned, or a copy in transit received at its destination or sent on from
 * elsewhere). Card and barcode are looked up first (a clean 422 naming the field when they name
 * nothing); the loan is then made or returned by circulation's own transactions, which decide again under
 * their locks, so a refusal changes nothing.
 */
import type { Hono } from 'hono';
import { checkIn, checkOut, findPatron } from '../../affordances/desk.js';
import type { Db } from '../../db/client.js';
import { checkInCopy } from '../../db/queries/check-in.js';
import { borrowCopy, settleExpiredHolds } from '../../db/queries/circulation.js';
import { findCopyByBarcode, findPatronByCard } from '../../db/queries/desk.js';
import { type ScannedCopy, unknownBarcode, unknownCard, withdrawnCopyScanned } from '../../domain/desk.js';
import { InvalidInput } from '../../domain/errors.js';
import { CARD_NUMBER_MAX_LENGTH } from '../../domain/limits.js';
import { authorize, type SignedIn } from '../../domain/policy.js';
import { paths } from '../../hypermedia/uris.js';
import { renderCheckedIn, renderCheckedOut, renderCheckinDesk, renderDesk } from '../../renderers/desk.js';
import { loanInvalidates } from '../../renderers/invalidations.js';
import { readJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { queryParams } from '../params.js';
import { send, sendCreated } from '../respond.js';
import { route } from '../route.js';

/** The copy a scanned barcode names, on the shelf's side of the desk: never a withdrawn one. */
async function scannedCopy(db: Db, barcode: string): Promise<ScannedCopy> {
  const copy = await findCopyByBarcode(db, { barcode });
  if (!copy) throw unknownBarcode();
  if (copy.withdrawn) throw withdrawnCopyScanned(copy);
  return copy;
}

/** A card's number as read from the query: one value, not too long; absent or blank for none. */
function cardNumberOf(values: string[] | undefined): string | undefined {
  if (values === undefined) return undefined;
  const [value, ...more] = values;
  if (more.length > 0) throw new InvalidInput('card_number may be given once', { card_number: 'given more than once' });
  const card = value?.trim();
  if (!card) return undefined;
  if (card.length > CARD_NUMBER_MAX_LENGTH) {
    throw new InvalidInput(`card_number is longer than ${CARD_NUMBER_MAX_LENGTH} characters`, {
      card_number: `at most ${CARD_NUMBER_MAX_LENGTH} characters`,
    });
  }
  return card;
}

/** The library's time zone: a loan's due date runs by the lending branch's days in it, a fine counts them. */
export function deskRoutes(app: Hono<AppEnv>, settings: { timeZone: string }): void {
  const { timeZone } = settings;
  route(
    app,
    paths.desk,
    { GET: findPatron },
    {
      async GET(c) {
        const ctx = c.get('ctx');
        findPatron.authorize(ctx);
        const card = cardNumberOf(queryParams(c).card_number);
        if (card === undefined) return send(c, renderDesk(ctx));
        const patron = await findPatronByCard(c.get('database').db, {
          cardNumber: card,
          currency: ctx.policy.currency,
        });
        if (!patron) throw unknownCard();
        return send(c, renderDesk(ctx, patron));
      },
    },
  );

  route(
    app,
    paths.deskCheckouts,
    { POST: checkOut },
    {
      async POST(c) {
        const ctx = c.get('ctx');
        checkOut.authorize(ctx, undefined);
        const input = checkOut.validate(await readJson(c));
        const { db } = c.get('database');
        const at = c.get('clock').now();
        const { currency } = ctx.policy;
        const patron = await findPatronByCard(db, { cardNumber: input.card_number.trim(), currency });
        if (!patron) throw unknownCard();
        const copy = await scannedCopy(db, input.barcode.trim());
        const { holdDays, fineLimit } = ctx.policy.rules;
        // A ready hold whose time ran out passes its copy on first, as a borrow sees the queue as it now is.
        await settleExpiredHolds(db, { bookId: copy.book_id, holdDays, at });
        // The lending transaction decides as a borrow does: the copy on the shelf (or set aside for this
        // patron), their fine limit, and the lending rules' decision at the desk's branch.
        const loan = await borrowCopy(db, {
          bookId: copy.book_id,
          borrowerId: patron.id,
          copyId: copy.id,
          branchId: input.branch_id ?? (ctx.caller as SignedIn).homeBranchId,
          holdDays,
          fineLimit,
          currency,
          at,
          timeZone,
        });
        return sendCreated(c, renderCheckedOut(loan, copy, patron, ctx), ctx.uris.loan(loan.id), [
          ...loanInvalidates(ctx.uris, loan, copy.author_id),
          ctx.uris.desk(patron.card_number),
        ]);
      },
    },
  );

  route(
    app,
    paths.deskCheckins,
    { GET: { summary: 'The check-in desk: return copies by barcode (librarians)' }, POST: checkIn },
    {
      GET(c) {
        const ctx = c.get('ctx');
        authorize(ctx.policy.useDesk(ctx.caller));
        return send(c, renderCheckinDesk(ctx));
      },
      async POST(c) {
        const ctx = c.get('ctx');
        checkIn.authorize(ctx, undefined);
        const input = checkIn.validate(await readJson(c));
        const { db } = c.get('database');
        const copy = await scannedCopy(db, input.barcode.trim());
        const branchId = input.branch_id ?? (ctx.caller as SignedIn).homeBranchId;
        const done = await checkInCopy(db, ctx.policy, ctx.caller as SignedIn, {
          copy,
          branchId,
          at: c.get('clock').now(),
          timeZone,
        });
        if (done.action !== 'returned') {
          return send(c, renderCheckedIn(done, copy, ctx), {
            showOnce: true,
            invalidates: [ctx.uris.copy(copy.id), ctx.uris.book(copy.book_id), ctx.uris.bookHolds(copy.book_id)],
          });
        }
        const { returned } = done;
        // The answer is what this scan did, once: where the copy went then is not a document to fetch again.
        return send(c, renderCheckedIn(done, copy, ctx), {
          showOnce: true,
          invalidates: [
            ...loanInvalidates(ctx.uris, returned, returned.book_author_id),
            ctx.uris.loan(returned.id),
            ctx.uris.userAccount(returned.borrower_id),
          ],
        });
      },
    },
  );
}
