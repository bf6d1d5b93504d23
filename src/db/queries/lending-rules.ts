/**
 * @module The lending rules a decision considers, read in one indexed statement, and the default rule's
 * adoption of the operator's settings at start-up. Deciding is the domain's (`domain/lending-rules.ts`).
 */
import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { LendingFacts, LendingSettings, Limit, LoanRule } from '../../domain/lending-rules.js';
import type { Db } from '../client.js';
import { prepared } from '../prepared.js';
import { branches, copies, itemTypes, loanRules, loans, patronCategories } from '../schema/index.js';
import { ruleColumns } from './loan-rule-columns.js';

/** The candidate rules of a decision, with the borrower's active loans within each rule's `max_loans` scope. */
export interface CandidateRules {
  rules: LoanRule[];
  /** By rule id: the borrower's active loans of its item type (if named) lent at its branch (if named). */
  loansInScope: Map<number, number>;
}

type RuleRow = Omit<LoanRule, 'max_loans' | 'fine_cap' | 'lost_after_days' | 'names'> & {
  max_loans: number | null;
  fine_cap: number | null;
  lost_after_days: number | null;
  no_limit: string[];
  category_name: string | null;
  item_type_name: string | null;
  branch_name: string | null;
  loans_in_scope: number | null;
};

/** The statement's parameters: placeholders for the prepared statement, values to plan it in a test. */
export type CandidateParams = Record<'category' | 'item_type' | 'loan_branch' | 'home_branch' | 'borrower', unknown>;

const placeholders: CandidateParams = {
  category: sql.placeholder('category'),
  item_type: sql.placeholder('item_type'),
  loan_branch: sql.placeholder('loan_branch'),
  home_branch: sql.placeholder('home_branch'),
  borrower: sql.placeholder('borrower'),
};

/**
 * The rule's scope column is one of the facts, or "any": the scope's unique index (NULLS NOT DISTINCT)
 * answers each of the 2 × 2 × 3 combinations exactly, so a matrix of any size reads at most 12 rows.
 */
function candidates(p: CandidateParams): SQL {
  const category = [sql`${loanRules.patronCategoryId} = ${p.category}`, isNull(loanRules.patronCategoryId)];
  const type = [sql`${loanRules.itemTypeId} = ${p.item_type}`, isNull(loanRules.itemTypeId)];
  const branch = [
    sql`${loanRules.branchId} = ${p.loan_branch}`,
    sql`${loanRules.branchId} = ${p.home_branch}`,
    isNull(loanRules.branchId),
  ];
  const arms = category.flatMap((c) => type.flatMap((t) => branch.map((b) => and(c, t, b) as SQL)));
  return sql`(${sql.join(arms, sql` or `)})`;
}

/** The borrower's active loans within the outer rule's scope, for a rule that caps them. */
const loansInScope = (borrower: unknown) => sql<number | null>`case when ${loanRules.maxLoans} is not null then (
  select count(*)::int from ${loans} as "out" join ${copies} as "out_copy" on "out_copy"."id" = "out"."copy_id"
  where "out"."borrower_id" = ${borrower} and "out"."returned_at" is null
    and (${loanRules.itemTypeId} is null or "out_copy"."item_type_id" = ${loanRules.itemTypeId})
    and (${loanRules.branchId} is null or "out"."branch_id" = ${loanRules.branchId})) end`;

export function candidateRulesQuery(db: Db, params: CandidateParams = placeholders) {
  return db
    .select({
      ...ruleColumns,
      category_name: patronCategories.name,
      item_type_name: itemTypes.name,
      branch_name: branches.name,
      loans_in_scope: loansInScope(params.borrower).as('loans_in_scope'),
    })
    .from(loanRules)
    .leftJoin(patronCategories, eq(patronCategories.id, loanRules.patronCategoryId))
    .leftJoin(itemTypes, eq(itemTypes.id, loanRules.itemTypeId))
    .leftJoin(branches, eq(branches.id, loanRules.branchId))
    .where(candidates(params));
}

/**
 * The rules that may apply to the facts, with the borrower's loans counted in each capping rule's scope
 * (none counted without a borrower). In a transaction, after the borrower's row is locked, the counts hold.
 */
export async function findCandidateRules(
  db: Db,
  facts: LendingFacts,
  borrowerId: number | undefined,
): Promise<CandidateRules> {
  const statement = prepared(db, 'find_candidate_rules', (db) =>
    candidateRulesQuery(db).prepare('find_candidate_rules'),
  );
  const rows = (await statement.execute({
    category: facts.patron_category_id,
    item_type: facts.item_type_id,
    loan_branch: facts.loan_branch_id,
    home_branch: facts.home_branch_id,
    borrower: borrowerId ?? null,
  })) as RuleRow[];
  const loansInScope = new Map<number, number>();
  const rules = rows.map((row) => {
    if (row.loans_in_scope !== null) loansInScope.set(row.id, Number(row.loans_in_scope));
    return ruleOf(row);
  });
  return { rules, loansInScope };
}

/**
 * Every lending rule with the names of its scope, as `findCandidateRules` reads the candidates: what a book
 * read decides its controls from (`LendingRulesCache`); the domain picks those that apply.
 */
export async function listLendingRules(db: Db): Promise<LoanRule[]> {
  const statement = prepared(db, 'list_lending_rules', (db) =>
    db
      .select({
        ...ruleColumns,
        category_name: patronCategories.name,
        item_type_name: itemTypes.name,
        branch_name: branches.name,
        loans_in_scope: sql<null>`null`.as('loans_in_scope'),
      })
      .from(loanRules)
      .leftJoin(patronCategories, eq(patronCategories.id, loanRules.patronCategoryId))
      .leftJoin(itemTypes, eq(itemTypes.id, loanRules.itemTypeId))
      .leftJoin(branches, eq(branches.id, loanRules.branchId))
      .orderBy(loanRules.id)
      .prepare('list_lending_rules'),
  );
  return ((await statement.execute()) as RuleRow[]).map(ruleOf);
}

function ruleOf(row: RuleRow): LoanRule {
  const { no_limit, category_name, item_type_name, branch_name, loans_in_scope: _, ...rule } = row;
  const limit = (name: string, value: number | null): Limit | null => (no_limit.includes(name) ? 'none' : value);
  return {
    ...rule,
    max_loans: limit('max_loans', row.max_loans),
    fine_cap: limit('fine_cap', row.fine_cap),
    lost_after_days: limit('lost_after_days', row.lost_after_days),
    names: {
      patron_category: category_name ?? undefined,
      item_type: item_type_name ?? undefined,
      branch: branch_name ?? undefined,
    },
  };
}

/**
 * While the default rule follows the operator's settings (`from_settings`), start-up writes them into it:
 * the loan period (also its renewal period), the renewals and the cap. A rule a librarian changed is kept.
 */
export async function adoptLendingSettings(db: Db, settings: LendingSettings): Promise<void> {
  const cap = settings.maxActiveLoans;
  await db
    .update(loanRules)
    .set({
      loanPeriod: settings.loanDays,
      loanPeriodUnit: 'days',
      renewalPeriod: settings.loanDays,
      renewalPeriodUnit: 'days',
      renewalsAllowed: settings.maxRenewals,
      maxLoans: cap ?? null,
      noLimit:
        cap === undefined
          ? sql`array_append(array_remove(${loanRules.noLimit}, 'max_loans'), 'max_loans')`
          : sql`array_remove(${loanRules.noLimit}, 'max_loans')`,
      updatedAt: sql`now()`,
      version: sql`${loanRules.version} + 1`,
    })
    .where(
      and(
        eq(loanRules.fromSettings, true),
        isNull(loanRules.patronCategoryId),
        isNull(loanRules.itemTypeId),
        isNull(loanRules.branchId),
        // Written only when something differs: a restart with the same settings changes nothing.
        sql`(${loanRules.loanPeriod}, ${loanRules.loanPeriodUnit}, ${loanRules.renewalPeriod}, ${loanRules.renewalPeriodUnit},
          ${loanRules.renewalsAllowed}, ${loanRules.maxLoans}, 'max_loans' = any(${loanRules.noLimit}))
          is distinct from (${settings.loanDays}::integer, 'days', ${settings.loanDays}::integer, 'days',
          ${settings.maxRenewals}::integer, ${cap ?? null}::integer, ${cap === undefined})`,
      ),
    );
}
