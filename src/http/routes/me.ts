/**
 * @module My account at `/me`: one URI for every signed-in caller, answered with their own page (`Vary` on
 * the credentials, as every document is, and `Cache-Control: private`); an anonymous caller is asked to sign in.
 */
import type { Hono } from 'hono';
import type { Db } from '../../db/client.js';
import type { LendingRulesCache } from '../../db/lending-rules.js';
import { findAccountHolder, listCurrentLoans, listOpenHolds, listRecentCharges } from '../../db/queries/my-account.js';
import { NotFound, Unauthorized } from '../../domain/errors.js';
import { decideLending } from '../../domain/lending-rules.js';
import { renewalFacts } from '../../domain/loan.js';
import { MY_ACCOUNT_CHARGES, type MyAccount } from '../../domain/my-account.js';
import type { SignedIn } from '../../domain/policy.js';
import { paths, type Uris } from '../../hypermedia/uris.js';
import { renderMyAccount } from '../../renderers/my-account.js';
import type { AppEnv } from '../env.js';
import { send } from '../respond.js';
import { route } from '../route.js';

export function meRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    paths.me,
    {
      GET: {
        summary:
          'My account: the signed-in caller\u2019s current loans, open holds, balance and recent charges, with the controls on each',
        errors: [401],
      },
    },
    {
      async GET(c) {
        const ctx = c.get('ctx');
        if (ctx.caller.kind !== 'user') throw signInFirst(ctx.uris);
        const account = await readMyAccount(c.get('database').db, ctx.caller, {
          at: c.get('clock').now(),
          currency: ctx.policy.currency,
          rules: c.get('lendingRules'),
        });
        return send(c, renderMyAccount(account, ctx), { headers: { 'Cache-Control': 'private' } });
      },
    },
  );
}

/** 401, with a `Link` to the root, whose `login` control signs a browser in (the HTML page shows the form). */
function signInFirst(uris: Uris): Unauthorized {
  return new Unauthorized(
    'sign in to see your account: with a bearer token, or through the root\u2019s login control',
    {
      Link: `<${uris.root()}>; rel="sign_in"`,
    },
  );
}

/**
 * Each section in one statement, side by side; `renew` is decided from the lending rules remembered (or
 * read once), as a book read's controls are: the renewal itself decides again from the database.
 */
async function readMyAccount(
  db: Db,
  caller: SignedIn,
  options: { at: Date; currency: string; rules: LendingRulesCache },
): Promise<MyAccount> {
  const [holder, loans, holds, charges, remembered] = await Promise.all([
    findAccountHolder(db, { userId: caller.id, currency: options.currency }),
    listCurrentLoans(db, { borrowerId: caller.id }),
    listOpenHolds(db, { borrowerId: caller.id, at: options.at }),
    listRecentCharges(db, { userId: caller.id, limit: MY_ACCOUNT_CHARGES }),
    options.rules.rules(),
  ]);
  // Deleted since the request was authenticated.
  if (!holder) throw new NotFound(`user ${caller.id} not found`);
  return {
    holder,
    loans: loans.map((loan) => ({ ...loan, decision: decideLending(remembered.rules, renewalFacts(loan)) })),
    holds,
    charges,
  };
}
