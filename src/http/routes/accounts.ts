/**
 * @module Accounts: a user's balance and history (the user and librarians), its payments, one entry, and
 * the librarian's writes: recording a payment, waiving a charge, charging by hand.
 */
import type { Context, Hono } from 'hono';
import { chargeAccount, recordPayment, waiveCharge } from '../../affordances/accounts.js';
import { findAccount, findAccountEntry, listAccountEntries, recordAccountEntry } from '../../db/queries/accounts.js';
import { findUser } from '../../db/queries/users.js';
import {
  type AccountEntry,
  checkCurrency,
  checkReason,
  exceedsBalance,
  exceedsCharge,
  unwaived,
} from '../../domain/account.js';
import { InvalidInput } from '../../domain/errors.js';
import { money } from '../../domain/money.js';
import { authorize, type SignedIn } from '../../domain/policy.js';
import { paths } from '../../hypermedia/uris.js';
import { renderAccount, renderAccountEntry, renderPayments } from '../../renderers/account.js';
import { readJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { idParam, queryParams } from '../params.js';
import { send, sendCreated } from '../respond.js';
import { route } from '../route.js';
import { notFound } from '../stored-resource.js';

/** Entries on a page of an account's history. */
export const ACCOUNT_PAGE_SIZE = 50;

export function accountRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    paths.userAccount,
    {
      GET: {
        summary: 'A user\u2019s account: the balance, and its entries newest first, a page at a time',
        parameters: [
          {
            name: 'cursor',
            description: 'Where the page starts: from a `next` link, as given',
            schema: { type: 'string' },
          },
        ],
      },
    },
    {
      async GET(c) {
        const userId = await visibleAccount(c);
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const before = cursorOf(queryParams(c));
        const account = await findAccount(db, { userId, currency: ctx.policy.currency });
        const page = await listAccountEntries(db, { userId, before, limit: ACCOUNT_PAGE_SIZE });
        const next = page.more ? String(page.entries.at(-1)?.id) : undefined;
        return send(c, renderAccount(account, { entries: page.entries, next }, ctx));
      },
    },
  );

  route(
    app,
    paths.userPayments,
    {
      GET: { summary: 'The payments of a user\u2019s account, the newest 50' },
      POST: recordPayment,
    },
    {
      async GET(c) {
        const userId = await visibleAccount(c);
        const ctx = c.get('ctx');
        const { db } = c.get('database');
        const account = await findAccount(db, { userId, currency: ctx.policy.currency });
        const page = await listAccountEntries(db, { userId, kind: 'payment', limit: ACCOUNT_PAGE_SIZE });
        return send(c, renderPayments(account, page.entries, ctx));
      },
      async POST(c) {
        const userId = await visibleAccount(c);
        const ctx = c.get('ctx');
        recordPayment.authorize(ctx, { user_id: userId });
        const input = recordPayment.validate(await readJson(c));
        checkCurrency(input.currency, ctx.policy.currency);
        const note = input.note === undefined ? undefined : input.note.trim() || undefined;
        const entry = await recordAccountEntry(c.get('database').db, {
          userId,
          kind: 'payment',
          amount: input.amount,
          currency: ctx.policy.currency,
          reason: note,
          recordedBy: (ctx.caller as SignedIn).id,
          at: c.get('clock').now(),
        });
        return created(c, entry);
      },
    },
  );

  route(
    app,
    paths.userCharges,
    { POST: chargeAccount },
    {
      async POST(c) {
        const userId = await visibleAccount(c);
        const ctx = c.get('ctx');
        chargeAccount.authorize(ctx, { user_id: userId });
        const input = chargeAccount.validate(await readJson(c));
        const entry = await recordAccountEntry(c.get('database').db, {
          userId,
          kind: 'manual',
          amount: input.amount,
          currency: ctx.policy.currency,
          reason: checkReason(input.reason, 'reason'),
          recordedBy: (ctx.caller as SignedIn).id,
          at: c.get('clock').now(),
        });
        return created(c, entry);
      },
    },
  );

  route(
    app,
    paths.accountEntry,
    { GET: { summary: 'One entry of a user\u2019s account: a charge, a payment or a waiver' } },
    {
      async GET(c) {
        const entry = await visibleEntry(c);
        return send(c, renderAccountEntry(entry, c.get('ctx')));
      },
    },
  );

  route(
    app,
    paths.entryWaivers,
    { POST: waiveCharge },
    {
      async POST(c) {
        const charge = await visibleEntry(c);
        const ctx = c.get('ctx');
        waiveCharge.authorize(ctx, charge);
        const input = waiveCharge.validate(await readJson(c));
        const left = unwaived(charge);
        // Left out: what is left of the charge, but no more than is still owed (payments go to the balance,
        // not to a charge, so a charge may be paid off in part while nothing of it was waived).
        const { balance } = await findAccount(c.get('database').db, {
          userId: charge.user_id,
          currency: left.currency,
        });
        const amount = input.amount ?? Math.min(left.minor, balance.minor);
        if (amount === 0) throw exceedsBalance('waiver', left, balance);
        // Refused here as the database would refuse it, with the amounts read now; a race past this check
        // meets the database's CHECK and the same answer.
        if (amount > left.minor) throw exceedsCharge(money(amount, left.currency), left, charge.id);
        const entry = await recordAccountEntry(c.get('database').db, {
          userId: charge.user_id,
          kind: 'waiver',
          amount,
          currency: charge.amount.currency,
          chargeId: charge.id,
          reason: checkReason(input.reason, 'reason'),
          recordedBy: (ctx.caller as SignedIn).id,
          at: c.get('clock').now(),
        });
        return created(c, entry);
      },
    },
  );
}

/** A new entry answered at its own URI; the account, its payments and the user's documents are stale. */
function created(c: Context<AppEnv>, entry: AccountEntry): Response {
  const { uris } = c.get('ctx');
  const uri = uris.accountEntry(entry.user_id, entry.id);
  const stale = [uris.userAccount(entry.user_id), uris.userPayments(entry.user_id)];
  if (entry.charge_id !== null) stale.push(uris.accountEntry(entry.user_id, entry.charge_id));
  return sendCreated(c, renderAccountEntry(entry, c.get('ctx')), uri, stale);
}

/** The account's user id, if the caller may see it (the user and librarians; 404 to anyone else). */
async function visibleAccount(c: Context<AppEnv>): Promise<number> {
  const id = idParam(c, 'id', 'user');
  const ctx = c.get('ctx');
  authorize(ctx.policy.seeAccount(ctx.caller, id));
  if (!(await findUser(c.get('database').db, { id }))) throw notFound('user', id);
  return id;
}

/** The entry, if it is of this user's account and the caller may see that account. */
async function visibleEntry(c: Context<AppEnv>): Promise<AccountEntry> {
  const userId = await visibleAccount(c);
  const id = idParam(c, 'entry', 'account entry');
  const entry = await findAccountEntry(c.get('database').db, { userId, id });
  if (!entry) throw notFound('account entry', id);
  return entry;
}

/** The page's start: the id of the last entry of the page before, as the `next` link gives it. */
function cursorOf(params: Record<string, string[]>): number | undefined {
  for (const name of Object.keys(params)) {
    if (name !== 'cursor') {
      throw new InvalidInput(`"${name}" is not a parameter of an account; accepted: cursor`, {
        [name]: 'unknown parameter',
      });
    }
  }
  const values = params.cursor;
  if (values === undefined) return undefined;
  const [text] = values;
  if (values.length !== 1 || text === undefined || !/^[1-9]\d{0,9}$/.test(text)) {
    throw new InvalidInput('query parameter "cursor" is not a cursor of this account; follow its links as given', {
      cursor: 'is not a cursor of this account',
    });
  }
  return Number(text);
}
