/**
 * @module The `loan_rules` table: the lending rules matrix. A rule names a patron category, an item type
 * and a branch, each `NULL` for "any", and sets any of the values below; a value left `NULL` is unset and
 * falls to the next rule in precedence (src/domain/lending-rules.ts). The rule of any × any × any always
 * exists and sets every value, so every value resolves.
 */
import { sql } from 'drizzle-orm';
import { boolean, check, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { branches, itemTypes, patronCategories } from './lending-lists.js';

export const PERIOD_UNITS = ['days', 'hours'] as const;
/** The limits a rule may set to "none" (no limit), listed in `no_limit`, rather than to a number. */
export const LIMITS = ['max_loans', 'fine_cap', 'lost_after_days'] as const;

export const loanRules = pgTable(
  'loan_rules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    // RESTRICT: a category, type or branch that rules name is not deleted from under them.
    patronCategoryId: integer('patron_category_id').references(() => patronCategories.id, { onDelete: 'restrict' }),
    itemTypeId: integer('item_type_id').references(() => itemTypes.id, { onDelete: 'restrict' }),
    branchId: integer('branch_id').references(() => branches.id, { onDelete: 'restrict' }),
    loanPeriod: integer('loan_period'),
    loanPeriodUnit: text('loan_period_unit', { enum: PERIOD_UNITS }),
    renewalsAllowed: integer('renewals_allowed'),
    renewalPeriod: integer('renewal_period'),
    renewalPeriodUnit: text('renewal_period_unit', { enum: PERIOD_UNITS }),
    /** Loans a patron may have out of what this rule covers (its item type, or all items for "any"). */
    maxLoans: integer('max_loans'),
    holdsAllowed: boolean('holds_allowed'),
    /** Money in the library currency's minor units (cents, pence), never a fraction. */
    finePerDay: integer('fine_per_day'),
    graceDays: integer('grace_days'),
    fineCap: integer('fine_cap'),
    lostAfterDays: integer('lost_after_days'),
    lostCharge: integer('lost_charge'),
    lendable: boolean('lendable'),
    /** A copy returned at another branch stays there (its home becomes that branch) instead of travelling home. */
    floating: boolean('floating'),
    /** Limits set to "no limit", each of them `LIMITS`; its column is then `NULL`. */
    noLimit: text('no_limit').array().notNull().default(sql`'{}'`),
    /**
     * The default rule's loan period, renewals and cap still follow the operator's settings
     * (`CATALOGUE_LOAN_DAYS`, `CATALOGUE_MAX_RENEWALS`, `CATALOGUE_MAX_ACTIVE_LOANS`) until a librarian
     * changes the rule, as they did before rules existed.
     */
    fromSettings: boolean('from_settings').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    version: integer('version').notNull().default(1),
  },
  (t) => [
    // One rule per combination, "any" included: NULLS NOT DISTINCT makes any × any × any unique too.
    unique('loan_rules_scope_key').on(t.patronCategoryId, t.itemTypeId, t.branchId).nullsNotDistinct(),
    check('loan_rules_loan_period_positive', sql`${t.loanPeriod} > 0`),
    check('loan_rules_loan_period_has_unit', sql`(${t.loanPeriod} is null) = (${t.loanPeriodUnit} is null)`),
    check('loan_rules_renewal_period_positive', sql`${t.renewalPeriod} > 0`),
    check('loan_rules_renewal_period_has_unit', sql`(${t.renewalPeriod} is null) = (${t.renewalPeriodUnit} is null)`),
    check(
      'loan_rules_units_known',
      sql`${t.loanPeriodUnit} in ('days', 'hours') and ${t.renewalPeriodUnit} in ('days', 'hours')`,
    ),
    check('loan_rules_renewals_not_negative', sql`${t.renewalsAllowed} >= 0`),
    check('loan_rules_max_loans_not_negative', sql`${t.maxLoans} >= 0`),
    check('loan_rules_fine_per_day_not_negative', sql`${t.finePerDay} >= 0`),
    check('loan_rules_grace_days_not_negative', sql`${t.graceDays} >= 0`),
    check('loan_rules_fine_cap_not_negative', sql`${t.fineCap} >= 0`),
    check('loan_rules_lost_after_days_positive', sql`${t.lostAfterDays} > 0`),
    check('loan_rules_lost_charge_not_negative', sql`${t.lostCharge} >= 0`),
    check(
      'loan_rules_no_limit_known',
      sql`${t.noLimit} <@ '{max_loans,fine_cap,lost_after_days}'::text[]
        and not ('max_loans' = any(${t.noLimit}) and ${t.maxLoans} is not null)
        and not ('fine_cap' = any(${t.noLimit}) and ${t.fineCap} is not null)
        and not ('lost_after_days' = any(${t.noLimit}) and ${t.lostAfterDays} is not null)`,
    ),
    // The rule of any × any × any is where every value ends: it sets them all.
    check(
      'loan_rules_default_sets_every_value',
      sql`${t.patronCategoryId} is not null or ${t.itemTypeId} is not null or ${t.branchId} is not null or (
        ${t.loanPeriod} is not null and ${t.renewalsAllowed} is not null and ${t.renewalPeriod} is not null
        and (${t.maxLoans} is not null or 'max_loans' = any(${t.noLimit})) and ${t.holdsAllowed} is not null
        and ${t.finePerDay} is not null and ${t.graceDays} is not null
        and (${t.fineCap} is not null or 'fine_cap' = any(${t.noLimit}))
        and (${t.lostAfterDays} is not null or 'lost_after_days' = any(${t.noLimit}))
        and ${t.lostCharge} is not null and ${t.lendable} is not null and ${t.floating} is not null)`,
    ),
    check(
      'loan_rules_only_default_from_settings',
      sql`not ${t.fromSettings} or (${t.patronCategoryId} is null and ${t.itemTypeId} is null and ${t.branchId} is null)`,
    ),
  ],
);
