/**
 * @module The lending rules matrix, `/loan-rules` and each rule: librarians read and change it. A change
 * applies to the loans and renewals made after it, never to those made before.
 */
import type { Context, Handler, Hono } from 'hono';
import type { RenderContext } from '../../affordances/context.js';
import { addLoanRule, changeLoanRule, deleteLoanRule, type RuleChoices } from '../../affordances/loan-rules.js';
import type { Db } from '../../db/client.js';
import { allListEntries, lendingLists } from '../../db/queries/lending-lists.js';
import {
  findLoanRule,
  insertLoanRule,
  listLoanRulesPage,
  deleteLoanRule as removeLoanRule,
  streamLoanRules,
  updateLoanRule,
} from '../../db/queries/loan-rules.js';
import { parseListing } from '../../domain/listing.js';
import { loanRuleListingSpec } from '../../domain/listings.js';
import type { LoanRuleInput, StoredLoanRule } from '../../domain/loan-rule.js';
import { authorize } from '../../domain/policy.js';
import { firstPage, paths } from '../../hypermedia/uris.js';
import { loanRulesCollection, renderLoanRule } from '../../renderers/loan-rule.js';
import type { AppEnv } from '../env.js';
import { sendListing } from '../listing.js';
import { idParam, queryParams } from '../params.js';
import { send } from '../respond.js';
import { route } from '../route.js';
import {
  type CreatableResource,
  changeHandler,
  createHandler,
  type DeletableResource,
  deleteHandler,
  notFound,
} from '../stored-resource.js';

export interface LoanRuleRouteOptions {
  /** The library's currency (`CATALOGUE_CURRENCY`): a rule's money is counted in its minor units. */
  currency: string;
}

export function loanRuleRoutes(app: Hono<AppEnv>, options: LoanRuleRouteOptions): void {
  const { currency } = options;
  const stored = storedRule(currency);
  route(
    app,
    paths.loanRules,
    {
      GET: { summary: 'List the lending rules (librarians only)', listing: loanRuleListingSpec, errors: [401, 403] },
      POST: addLoanRule,
    },
    {
      async GET(c) {
        const ctx = c.get('ctx');
        authorize(ctx.policy.manageLending(ctx.caller));
        const listing = parseListing(loanRuleListingSpec, queryParams(c));
        const database = c.get('database');
        const choices = await ruleChoices(database.db);
        return sendListing(
          c,
          loanRuleListingSpec,
          listing,
          loanRulesCollection(ctx, choices),
          { page: (paged) => listLoanRulesPage(database.db, paged), stream: (all) => streamLoanRules(database, all) },
          (rule: StoredLoanRule) => renderLoanRule(rule, ctx, { currency, fields: listing.fields, asItem: true }),
        );
      },
      POST: forgettingLendingRules(createHandler(stored, addLoanRule)),
    },
  );
  route(
    app,
    paths.loanRule,
    {
      GET: { summary: 'A lending rule (librarians only)', errors: [401, 403] },
      PUT: changeLoanRule.update,
      PATCH: changeLoanRule.edit,
      DELETE: deleteLoanRule,
    },
    {
      async GET(c) {
        const ctx = c.get('ctx');
        authorize(ctx.policy.manageLending(ctx.caller));
        const rule = await ruleIn(c);
        return send(c, renderLoanRule(rule, ctx, { currency, choices: await ruleChoices(c.get('database').db) }));
      },
      PUT: forgettingLendingRules(changeHandler(stored, changeLoanRule.update)),
      PATCH: forgettingLendingRules(changeHandler(stored, changeLoanRule.edit)),
      DELETE: forgettingLendingRules(deleteHandler(stored, deleteLoanRule)),
    },
  );
}

/**
 * A write to the rules, or to the lists that name their scope, forgets the rules this process remembers
 * once it is done: its next book read decides from them without waiting for the database's notification.
 */
export function forgettingLendingRules(handler: Handler<AppEnv>): Handler<AppEnv> {
  return async function forgetting(c, next) {
    try {
      return await handler(c, next);
    } finally {
      c.get('lendingRules').forgetAll();
    }
  };
}

async function ruleIn(c: Context<AppEnv>): Promise<StoredLoanRule> {
  const id = idParam(c, 'id', 'loan rule');
  const rule = await findLoanRule(c.get('database').db, { id });
  if (!rule) throw notFound('loan rule', id);
  return rule;
}

/** The entries a rule's scope fields offer: each list, by name. */
async function ruleChoices(db: Db): Promise<RuleChoices> {
  const [patronCategories, itemTypes, branches] = await Promise.all([
    allListEntries(db, lendingLists['patron-category']),
    allListEntries(db, lendingLists['item-type']),
    allListEntries(db, lendingLists.branch),
  ]);
  return { patronCategories, itemTypes, branches };
}

/** A rule as a stored resource; the answer to a write renders it with its controls' choices unread. */
function storedRule(currency: string) {
  const render = (rule: StoredLoanRule, ctx: RenderContext) => renderLoanRule(rule, ctx, { currency });
  return {
    kind: 'loan rule',
    find: (db, id) => findLoanRule(db, { id }),
    insert: insertLoanRule,
    update: updateLoanRule,
    remove: removeLoanRule,
    uri: (ctx, rule) => ctx.uris.loanRule(rule.id),
    render,
    invalidates: (ctx) => [ctx.uris.loanRules(), ctx.uris.loanRules(firstPage)],
    next: (ctx) => ctx.uris.loanRules(firstPage),
  } satisfies CreatableResource<StoredLoanRule, LoanRuleInput> & DeletableResource<StoredLoanRule>;
}
