/** @module Loans: listing (all for librarians, one's own for members), reading, and returning. */
import type { Context, Hono } from 'hono';
import { renewLoan, returnLoan } from '../../affordances/loans.js';
import { renewLoan as extendLoan, returnCopy } from '../../db/queries/circulation.js';
import { findLoan, listLoansPage, streamLoans } from '../../db/queries/loans.js';
import { Conflict, NotFound } from '../../domain/errors.js';
import { parseListing } from '../../domain/listing.js';
import { loanListingSpec } from '../../domain/listings.js';
import type { Loan } from '../../domain/loan.js';
import { authorize, type SignedIn } from '../../domain/policy.js';
import { loanAlreadyReturned } from '../../domain/refusals.js';
import { paths } from '../../hypermedia/uris.js';
import type { Collection } from '../../renderers/collection.js';
import { loansCollection } from '../../renderers/collections.js';
import { loanInvalidates } from '../../renderers/invalidations.js';
import { renderLoan } from '../../renderers/loan.js';
import { readJson, readOptionalJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { sendListing } from '../listing.js';
import { idParam, queryParams } from '../params.js';
import { send } from '../respond.js';
import { route } from '../route.js';

const loanNotFound = (id: number) => new NotFound(`loan ${id} not found`);

export function loanRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    paths.loans,
    { GET: { summary: 'List loans: all for a librarian, one\u2019s own for a member', listing: loanListingSpec } },
    {
      GET(c) {
        const { caller, policy } = c.get('ctx');
        authorize(policy.listLoans(caller));
        const borrowerId = policy.seesAllLoans(caller) ? undefined : (caller as SignedIn).id;
        return sendLoans(c, loansCollection(c.get('ctx')), borrowerId);
      },
    },
  );

  route(
    app,
    paths.loan,
    { GET: { summary: 'A loan' }, PATCH: returnLoan },
    {
      async GET(c) {
        const id = idParam(c, 'id', 'loan');
        const ctx = c.get('ctx');
        const loan = await findLoan(c.get('database').db, { id });
        if (!loan) throw loanNotFound(id);
        authorize(ctx.policy.seeLoan(ctx.caller, loan));
        return send(c, renderLoan(loan, ctx));
      },
      /** Returning is the one change a loan takes: `{"status":"returned"}`. */
      async PATCH(c) {
        const id = idParam(c, 'id', 'loan');
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const loan = await findLoan(db, { id });
        if (!loan) throw loanNotFound(id);
        returnLoan.authorize(ctx, loan);
        returnLoan.validate(await readJson(c));
        // Conditional on the loan still being active: a concurrent return makes this one a 409.
        const returned = await returnCopy(db, { id, holdDays: ctx.policy.rules.holdDays, at: c.get('clock').now() });
        if (!returned) throw loanAlreadyReturned(id);
        return send(c, renderLoan(returned, ctx), {
          invalidates: loanInvalidates(ctx.uris, returned, returned.book_author_id),
        });
      },
    },
  );

  route(
    app,
    paths.loanRenewals,
    { POST: renewLoan },
    {
      /** A renewal answers the loan renewed, at its own URI. */
      async POST(c) {
        const id = idParam(c, 'id', 'loan');
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const loan = await findLoan(db, { id });
        if (!loan) throw loanNotFound(id);
        renewLoan.authorize(ctx, loan);
        renewLoan.validate(await readOptionalJson(c));
        const { rules } = ctx.policy;
        const renewed = await extendLoan(db, {
          id,
          loanDays: rules.loanDays,
          maxRenewals: rules.maxRenewals,
          at: c.get('clock').now(),
        });
        if (!renewed) {
          // Something changed since the read (a renewal, a hold, the clock): the fresh state says what.
          const now = await findLoan(db, { id });
          if (!now) throw loanNotFound(id);
          renewLoan.authorize(ctx, now);
          throw new Conflict(`loan ${id} could not be renewed; read it again`);
        }
        const uri = ctx.uris.loan(id);
        return send(c, renderLoan({ ...renewed, book_held: false }, ctx), {
          headers: { 'Content-Location': uri },
          invalidates: [uri],
        });
      },
    },
  );
}

/** A listing of loans, optionally of one borrower. */
export function sendLoans(c: Context<AppEnv>, collection: Collection, borrowerId: number | undefined) {
  const ctx = c.get('ctx');
  const database = c.get('database');
  const listing = parseListing(loanListingSpec, queryParams(c));
  const scope = { borrowerId, at: c.get('clock').now() };
  return sendListing(
    c,
    loanListingSpec,
    listing,
    collection,
    { page: (paged) => listLoansPage(database.db, paged, scope), stream: (all) => streamLoans(database, all, scope) },
    (loan: Loan) => renderLoan(loan, ctx, { fields: listing.fields, asItem: true }),
  );
}
