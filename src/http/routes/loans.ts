/** @module Loans: listing (all for librarians, one's own for members), reading, and returning. */
import type { Context, Hono } from 'hono';
import { renewLoan, returnLoan } from '../../affordances/loans.js';
import { renewLoan as extendLoan, returnCopy } from '../../db/queries/circulation.js';
import { decideRenewal, findRenewableLoan } from '../../db/queries/lending-decisions.js';
import { findLoan, findLoanTerms, listLoansPage, streamLoans } from '../../db/queries/loans.js';
import { Conflict, NotFound } from '../../domain/errors.js';
import { parseListing } from '../../domain/listing.js';
import { loanListingSpec } from '../../domain/listings.js';
import type { Loan } from '../../domain/loan.js';
import { authorize, type SignedIn } from '../../domain/policy.js';
import { loanAlreadyReturned } from '../../domain/refusals.js';
import { paths } from '../../hypermedia/uris.js';
import type { Collection } from '../../renderers/collection.js';
import { loansCollection } from '../../renderers/collections.js';
import { type KeptTerms, renderExplanation } from '../../renderers/explanation.js';
import { loanInvalidates } from '../../renderers/invalidations.js';
import { renderLoan } from '../../renderers/loan.js';
import { readJson, readOptionalJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { sendListing } from '../listing.js';
import { idParam, queryParams } from '../params.js';
import { send } from '../respond.js';
import { route } from '../route.js';

const loanNotFound = (id: number) => new NotFound(`loan ${id} not found`);

/** The library's time zone: a renewal's due date runs by the lending branch's days in it, a fine counts them. */
export function loanRoutes(app: Hono<AppEnv>, settings: { timeZone: string }): void {
  const { timeZone } = settings;
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
        const { db } = c.get('database');
        // `renew` is offered as a renewal would be decided: by the rules as they stand now.
        const loan = await findRenewableLoan(db, { id });
        if (!loan) throw loanNotFound(id);
        authorize(ctx.policy.seeLoan(ctx.caller, loan));
        return send(c, renderLoan(loan, ctx));
      },
      /** Returning is the one change a loan takes: `{"status":"returned"}`, at `branch_id` if named. */
      async PATCH(c) {
        const id = idParam(c, 'id', 'loan');
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const loan = await findLoan(db, { id });
        if (!loan) throw loanNotFound(id);
        returnLoan.authorize(ctx, loan);
        const input = returnLoan.validate(await readJson(c));
        // Conditional on the loan still being active: a concurrent return makes this one a 409.
        const returned = await returnCopy(db, {
          id,
          branchId: input.branch_id,
          holdDays: ctx.policy.rules.holdDays,
          at: c.get('clock').now(),
          timeZone,
          currency: ctx.policy.currency,
        });
        if (!returned) throw loanAlreadyReturned(id);
        return send(c, renderLoan(returned, ctx), {
          // A fine on a late return changes the borrower's account too.
          invalidates: [
            ...loanInvalidates(ctx.uris, returned, returned.book_author_id),
            ctx.uris.userAccount(returned.borrower_id),
          ],
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
        // Decided again now: the borrower's category, the copy and the rules as they stand.
        const loan = await findRenewableLoan(db, { id });
        if (!loan) throw loanNotFound(id);
        renewLoan.authorize(ctx, loan);
        renewLoan.validate(await readOptionalJson(c));
        const { decision } = loan;
        const renewed =
          decision &&
          (await extendLoan(db, {
            id,
            decision,
            at: c.get('clock').now(),
            timeZone,
            fineLimit: ctx.policy.rules.fineLimit,
          }));
        if (!renewed) {
          // Something changed since the read (a renewal, a hold, the clock): the fresh state says what.
          const now = await findRenewableLoan(db, { id });
          if (!now) throw loanNotFound(id);
          renewLoan.authorize(ctx, now);
          throw new Conflict(`loan ${id} could not be renewed; read it again`);
        }
        const uri = ctx.uris.loan(id);
        return send(c, renderLoan({ ...loan, ...renewed, book_held: false, decision }, ctx), {
          headers: { 'Content-Location': uri },
          invalidates: [uri],
        });
      },
    },
  );

  route(
    app,
    paths.loanExplain,
    { GET: { summary: 'Why a loan has its terms: the rule behind each value, and the rules considered' } },
    {
      async GET(c) {
        const id = idParam(c, 'id', 'loan');
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const loan = await findLoan(db, { id });
        if (!loan) throw loanNotFound(id);
        authorize(ctx.policy.seeLoan(ctx.caller, loan));
        const kept = (await findLoanTerms(db, { id })) as NonNullable<Awaited<ReturnType<typeof findLoanTerms>>>;
        const decision = await decideRenewal(db, loan);
        return send(c, renderExplanation({ of: 'loan', loanId: id, kept: keptTerms(kept), decision }, ctx));
      },
    },
  );
}

/** A loan's kept terms as the explanation shows them (a limit of `NULL` is "none"). */
function keptTerms(row: NonNullable<Awaited<ReturnType<typeof findLoanTerms>>>): KeptTerms {
  return {
    terms: {
      loan_period: { period: row.loan_period, unit: row.loan_period_unit },
      renewals_allowed: row.renewals_allowed,
      fine_per_day: row.fine_per_day,
      grace_days: row.grace_days,
      fine_cap: row.fine_cap ?? 'none',
      lost_after_days: row.lost_after_days ?? 'none',
      lost_charge: row.lost_charge,
      floating: row.floating,
    },
    rules: row.term_rules,
  };
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
