/** The lending decision, without a database: precedence, unset values falling through, limits of "none". */
import { describe, expect, it } from 'vitest';
import {
  decideLending,
  type LendingFacts,
  type LoanRule,
  lendingRefusalReason,
  MissingDefaultRule,
  maxLoansScope,
  renewalRefusalReason,
} from '../src/domain/lending-rules.js';

const unset = {
  loan_period: null,
  loan_period_unit: null,
  renewals_allowed: null,
  renewal_period: null,
  renewal_period_unit: null,
  max_loans: null,
  holds_allowed: null,
  fine_per_day: null,
  grace_days: null,
  fine_cap: null,
  lost_after_days: null,
  lost_charge: null,
  lendable: null,
  floating: null,
} as const;

const defaultRule: LoanRule = {
  id: 1,
  patron_category_id: null,
  item_type_id: null,
  branch_id: null,
  loan_period: 14,
  loan_period_unit: 'days',
  renewals_allowed: 2,
  renewal_period: 14,
  renewal_period_unit: 'days',
  max_loans: 10,
  holds_allowed: true,
  fine_per_day: 0,
  grace_days: 0,
  fine_cap: 'none',
  lost_after_days: 'none',
  lost_charge: 0,
  lendable: true,
  floating: false,
};

/** A rule of a scope that sets only the values given. */
function rule(
  id: number,
  scope: Partial<Pick<LoanRule, 'patron_category_id' | 'item_type_id' | 'branch_id'>>,
  values: Partial<LoanRule>,
): LoanRule {
  return { id, patron_category_id: null, item_type_id: null, branch_id: null, ...unset, ...scope, ...values };
}

const CHILD = 2;
const DVD = 3;
const EAST = 4;
const WEST = 5;
/** A child borrowing a DVD whose home is West, at the East desk. */
const facts: LendingFacts = {
  patron_category_id: CHILD,
  item_type_id: DVD,
  loan_branch_id: EAST,
  home_branch_id: WEST,
};

describe('the lending decision', () => {
  it('with the default rule alone, takes every value from it', () => {
    const decision = decideLending([defaultRule], facts);
    expect(decision.terms).toEqual({
      loan_period: { period: 14, unit: 'days' },
      renewals_allowed: 2,
      renewal_period: { period: 14, unit: 'days' },
      max_loans: 10,
      holds_allowed: true,
      fine_per_day: 0,
      grace_days: 0,
      fine_cap: 'none',
      lost_after_days: 'none',
      lost_charge: 0,
      lendable: true,
      floating: false,
    });
    expect(Object.values(decision.sources).every((r) => r.id === 1)).toBe(true);
    expect(decision.considered.map((c) => c.rule.id)).toEqual([1]);
  });

  it('orders the branch first: the loan branch, then the home branch, then any', () => {
    const anyBranchNamedEverythingElse = rule(
      10,
      { patron_category_id: CHILD, item_type_id: DVD },
      { loan_period: 3, loan_period_unit: 'days' },
    );
    const home = rule(11, { branch_id: WEST }, { loan_period: 5, loan_period_unit: 'days' });
    const loanBranch = rule(12, { branch_id: EAST }, { loan_period: 7, loan_period_unit: 'days' });
    const decision = decideLending([defaultRule, anyBranchNamedEverythingElse, home, loanBranch], facts);
    expect(decision.terms.loan_period).toEqual({ period: 7, unit: 'days' });
    expect(decision.sources.loan_period.id).toBe(12);
    expect(decision.considered.map((c) => c.rule.id)).toEqual([12, 11, 10, 1]);
    expect(decision.considered.map((c) => c.match.branch)).toEqual(['loan branch', 'home branch', 'any', 'any']);
  });

  it('within a branch, a named item type before any, then a named category before any', () => {
    const typeOnly = rule(20, { item_type_id: DVD }, { renewals_allowed: 1 });
    const categoryOnly = rule(21, { patron_category_id: CHILD }, { renewals_allowed: 5 });
    const both = rule(22, { patron_category_id: CHILD, item_type_id: DVD }, { fine_per_day: 25 });
    const decision = decideLending([categoryOnly, defaultRule, typeOnly, both], facts);
    expect(decision.considered.map((c) => c.rule.id)).toEqual([22, 20, 21, 1]);
    // The type-only rule outranks the category-only rule: the item type is compared before the category.
    expect(decision.terms.renewals_allowed).toBe(1);
    expect(decision.sources.renewals_allowed.id).toBe(20);
    expect(decision.terms.fine_per_day).toBe(25);
  });

  it('lets an unset value fall to the next rule, each value from the first rule that sets it', () => {
    const specific = rule(30, { patron_category_id: CHILD, item_type_id: DVD, branch_id: EAST }, { max_loans: 2 });
    const typeRule = rule(31, { item_type_id: DVD }, { loan_period: 7, loan_period_unit: 'days', fine_per_day: 50 });
    const decision = decideLending([defaultRule, typeRule, specific], facts);
    expect(decision.terms.max_loans).toBe(2);
    expect(decision.sources.max_loans.id).toBe(30);
    expect(decision.terms.loan_period.period).toBe(7);
    expect(decision.sources.loan_period.id).toBe(31);
    expect(decision.terms.renewals_allowed).toBe(2);
    expect(decision.sources.renewals_allowed.id).toBe(1);
    expect(decision.considered.find((c) => c.rule.id === 30)?.supplied).toEqual(['max_loans']);
    expect(decision.considered.find((c) => c.rule.id === 31)?.supplied).toEqual(['loan_period', 'fine_per_day']);
  });

  it('ignores rules of another category, item type or branch', () => {
    const others = [
      rule(40, { patron_category_id: CHILD + 100 }, { loan_period: 1, loan_period_unit: 'days' }),
      rule(41, { item_type_id: DVD + 100 }, { loan_period: 2, loan_period_unit: 'days' }),
      rule(42, { branch_id: 999 }, { loan_period: 3, loan_period_unit: 'days' }),
    ];
    const decision = decideLending([...others, defaultRule], facts);
    expect(decision.terms.loan_period.period).toBe(14);
    expect(decision.considered.map((c) => c.rule.id)).toEqual([1]);
  });

  it('a rule naming the branch that is both the loan and the home branch ranks as the loan branch', () => {
    const atHome = { ...facts, loan_branch_id: WEST };
    const decision = decideLending([defaultRule, rule(50, { branch_id: WEST }, { grace_days: 3 })], atHome);
    expect(decision.considered[0]?.match.branch).toBe('loan branch');
    expect(decision.terms.grace_days).toBe(3);
  });

  it('keeps "none" limits as "none", and a number over "none" from a more specific rule', () => {
    const staff = rule(60, { patron_category_id: CHILD }, { max_loans: 'none' });
    const decision = decideLending([defaultRule, staff], facts);
    expect(decision.terms.max_loans).toBe('none');
    expect(lendingRefusalReason(decision, 10_000)).toBeUndefined();
    const capped = decideLending(
      [defaultRule, staff, rule(61, { item_type_id: DVD, patron_category_id: CHILD }, { fine_cap: 500 })],
      facts,
    );
    expect(capped.terms.fine_cap).toBe(500);
    expect(capped.terms.lost_after_days).toBe('none');
  });

  it('always ends at the default rule; without one, says which value no rule sets', () => {
    const decision = decideLending([rule(70, { item_type_id: DVD }, { lendable: false }), defaultRule], facts);
    expect(decision.considered.at(-1)?.rule.id).toBe(1);
    expect(() => decideLending([rule(70, { item_type_id: DVD }, { lendable: false })], facts)).toThrow(
      MissingDefaultRule,
    );
    expect(() => decideLending([], facts)).toThrow(/loan_period/);
  });

  it('with no copy (a hold on a book without copies), only rules of any item type and branch apply', () => {
    const noCopy: LendingFacts = {
      patron_category_id: CHILD,
      item_type_id: null,
      loan_branch_id: EAST,
      home_branch_id: null,
    };
    const decision = decideLending(
      [
        defaultRule,
        rule(80, { item_type_id: DVD }, { holds_allowed: false }),
        rule(81, { patron_category_id: CHILD }, { holds_allowed: false }),
      ],
      noCopy,
    );
    expect(decision.sources.holds_allowed.id).toBe(81);
  });
});

describe('what the decision refuses, in words naming the rule', () => {
  const names = { patron_category: 'Child', item_type: 'DVD', branch: 'East' };

  it('a copy not lent', () => {
    const decision = decideLending(
      [defaultRule, { ...rule(90, { item_type_id: DVD }, { lendable: false }), names }],
      facts,
    );
    expect(lendingRefusalReason(decision, 0)).toBe('an item of type DVD is not lent (rule 90)');
  });

  it('the cap of the rule that supplied it, counted in its scope', () => {
    const cap = { ...rule(7, { patron_category_id: CHILD, item_type_id: DVD }, { max_loans: 2 }), names };
    const decision = decideLending([defaultRule, cap], facts);
    expect(maxLoansScope(decision)).toEqual({ item_type_id: DVD, branch_id: null });
    expect(lendingRefusalReason(decision, 1)).toBeUndefined();
    expect(lendingRefusalReason(decision, 2)).toBe(
      'members of category Child may have 2 items of type DVD out at once (rule 7): the borrower already has 2 active loans of that kind',
    );
  });

  it('the default cap in the words loans always had', () => {
    expect(lendingRefusalReason(decideLending([defaultRule], facts), 10)).toMatch(/already has 10 active loans$/);
  });

  it('renewals exhausted', () => {
    const decision = decideLending(
      [defaultRule, { ...rule(91, { item_type_id: DVD }, { renewals_allowed: 0 }), names }],
      facts,
    );
    expect(renewalRefusalReason(decision, 0)).toMatch(
      /renewed as often as a loan may be \(0 times, rule 91: any category × item type DVD × any branch\)/,
    );
    expect(renewalRefusalReason(decideLending([defaultRule], facts), 1)).toBeUndefined();
  });
});
