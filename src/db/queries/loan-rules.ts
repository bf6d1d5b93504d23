/**
 * @module Reads and writes of the lending rules matrix. A limit set to "none" is stored as its column unset
 * and its name in `no_limit`; a change is merged with the rule under its row lock, so the checks of the
 * whole rule (`ruleAfter`) see what is written.
 */
import { eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { Conflict, UnprocessableEntity } from '../../domain/errors.js';
import type { Listing, PagedListing } from '../../domain/listing.js';
import { loanRuleListingSpec } from '../../domain/listings.js';
import {
  LIMIT_FIELDS,
  type LoanRuleInput,
  type PeriodUnit,
  type RuleScope,
  type RuleValues,
  readLimit,
  ruleAfter,
  type StoredLoanRule,
  storedLimit,
} from '../../domain/loan-rule.js';
import { defaultRuleStays } from '../../domain/refusals.js';
import type { Database, Db } from '../client.js';
import { branches, itemTypes, loanRules, patronCategories } from '../schema/index.js';
import { listingTable, readAll, readPage } from './listing.js';
import { ruleColumns } from './loan-rule-columns.js';
import { anyOf } from './sql.js';
import { atVersions, rejectedWrite } from './writes.js';

/** The name of what a rule's scope names, for its links' titles; qualified by hand (see `authors.ts`). */
const nameOf = (table: typeof branches | typeof itemTypes | typeof patronCategories, column: string) =>
  sql<
    string | null
  >`(select "named"."name" from ${table} as "named" where "named"."id" = ${loanRules}.${sql.identifier(column)})`;

const storedRuleColumns = {
  ...ruleColumns,
  from_settings: loanRules.fromSettings,
  version: loanRules.version,
  patron_category_name: nameOf(patronCategories, 'patron_category_id').as('patron_category_name'),
  item_type_name: nameOf(itemTypes, 'item_type_id').as('item_type_name'),
  branch_name: nameOf(branches, 'branch_id').as('branch_name'),
};

/** A rule as the database holds it: limits as columns and `no_limit`. */
type RuleRow = Omit<StoredLoanRule, (typeof LIMIT_FIELDS)[number] | 'loan_period_unit' | 'renewal_period_unit'> & {
  max_loans: number | null;
  fine_cap: number | null;
  lost_after_days: number | null;
  loan_period_unit: string | null;
  renewal_period_unit: string | null;
  no_limit: string[];
};

function ruleOf(row: RuleRow): StoredLoanRule {
  const { no_limit: noLimit, ...rest } = row;
  return {
    ...rest,
    loan_period_unit: row.loan_period_unit as PeriodUnit | null,
    renewal_period_unit: row.renewal_period_unit as PeriodUnit | null,
    max_loans: readLimit(row.max_loans, noLimit, 'max_loans'),
    fine_cap: readLimit(row.fine_cap, noLimit, 'fine_cap'),
    lost_after_days: readLimit(row.lost_after_days, noLimit, 'lost_after_days'),
  };
}

/** A scope filter's values (ids, or `any`) as a condition on its column. */
const scopeFilter = (column: PgColumn) => (values: (string | number | boolean)[]) =>
  anyOf(values, (value): SQL => (value === 'any' ? sql`${column} is null` : sql`${column} = ${Number(value)}`));

export const loanRuleListing = listingTable(loanRuleListingSpec, {
  from: loanRules,
  selection: storedRuleColumns,
  columns: { id: loanRules.id },
  id: loanRules.id,
  search: { column: sql`''::tsvector`, config: 'simple' },
  filters: {
    patron_category_id: scopeFilter(loanRules.patronCategoryId),
    item_type_id: scopeFilter(loanRules.itemTypeId),
    branch_id: scopeFilter(loanRules.branchId),
  },
});

export async function findLoanRule(db: Db, params: { id: number }): Promise<StoredLoanRule | undefined> {
  const [row] = await db.select(storedRuleColumns).from(loanRules).where(eq(loanRules.id, params.id));
  return row && ruleOf(row as RuleRow);
}

export async function insertLoanRule(db: Db, input: LoanRuleInput): Promise<StoredLoanRule> {
  const rule = ruleAfter(undefined, input);
  const [inserted] = await db
    .insert(loanRules)
    .values(columnsOf(rule))
    .returning({ id: loanRules.id })
    .catch(rejectedRule);
  return (await findLoanRule(db, { id: (inserted as { id: number }).id })) as StoredLoanRule;
}

/**
 * Applies the changes to the rule at one of `versions` (if given), under its row lock. The default rule,
 * once changed, no longer follows the operator's settings.
 */
export async function updateLoanRule(
  db: Db,
  params: { id: number; changes: LoanRuleInput; versions?: number[] | undefined },
): Promise<StoredLoanRule | undefined> {
  return db
    .transaction(async (tx) => {
      const [row] = await tx
        .select(storedRuleColumns)
        .from(loanRules)
        .where(atVersions(loanRules, params))
        .for('update');
      if (!row) return undefined;
      const rule = ruleAfter(ruleOf(row as RuleRow), params.changes);
      await tx
        .update(loanRules)
        .set({ ...columnsOf(rule), fromSettings: false, updatedAt: sql`now()`, version: sql`${loanRules.version} + 1` })
        .where(eq(loanRules.id, params.id));
      return findLoanRule(tx, { id: params.id });
    })
    .catch(rejectedRule);
}

/** Deletes a rule (at one of `versions`, if given); the rule of any × any × any stays (a trigger). */
export async function deleteLoanRule(
  db: Db,
  params: { id: number; versions?: number[] | undefined },
): Promise<boolean> {
  const deleted = await db
    .delete(loanRules)
    .where(atVersions(loanRules, params))
    .returning({ id: loanRules.id })
    .catch(rejectedRule);
  return deleted.length > 0;
}

export async function listLoanRulesPage(db: Db, listing: PagedListing) {
  const { rows, ...facts } = await readPage<RuleRow>(db, loanRuleListing, listing);
  return { ...facts, rows: rows.map(ruleOf) };
}

export async function* streamLoanRules(database: Database, listing: Listing): AsyncIterable<StoredLoanRule[]> {
  for await (const rows of readAll<RuleRow>(database, loanRuleListing, listing)) yield rows.map(ruleOf);
}

/** The columns of a whole rule. */
function columnsOf(rule: RuleScope & RuleValues) {
  const maxLoans = storedLimit(rule.max_loans);
  const fineCap = storedLimit(rule.fine_cap);
  const lostAfter = storedLimit(rule.lost_after_days);
  const noLimit = LIMIT_FIELDS.filter((_, at) => [maxLoans, fineCap, lostAfter][at]?.none);
  return {
    patronCategoryId: rule.patron_category_id,
    itemTypeId: rule.item_type_id,
    branchId: rule.branch_id,
    loanPeriod: rule.loan_period,
    loanPeriodUnit: rule.loan_period_unit,
    renewalsAllowed: rule.renewals_allowed,
    renewalPeriod: rule.renewal_period,
    renewalPeriodUnit: rule.renewal_period_unit,
    maxLoans: maxLoans.value,
    holdsAllowed: rule.holds_allowed,
    finePerDay: rule.fine_per_day,
    graceDays: rule.grace_days,
    fineCap: fineCap.value,
    lostAfterDays: lostAfter.value,
    lostCharge: rule.lost_charge,
    lendable: rule.lendable,
    floating: rule.floating,
    noLimit,
  };
}

/** An unknown id in the scope names its field. */
const unknown = (field: string, list: string) => () =>
  new UnprocessableEntity(`${field} names no ${list}`, { [field]: `names no ${list}` });

const rejectedRule = rejectedWrite('loan rule', {
  loan_rules_scope_key: () =>
    new Conflict('a rule for this patron category, item type and branch exists already: change that one'),
  loan_rules_patron_category_id_patron_categories_id_fk: unknown('patron_category_id', 'patron category'),
  loan_rules_item_type_id_item_types_id_fk: unknown('item_type_id', 'item type'),
  loan_rules_branch_id_branches_id_fk: unknown('branch_id', 'branch'),
  loan_rules_default_kept: defaultRuleStays,
});
