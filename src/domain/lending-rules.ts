/**
 * @module The lending decision: which terms a loan of one copy to one borrower at one branch gets, from
 * the rules matrix. Pure: it is given the candidate rules and the facts, and answers every value with the
 * rule that supplied it and the trace of the rules considered (docs/access-and-loans.md, "The rules
 * matrix: precedence").
 */

/**
 * The operator's settings that the default rule follows while `from_settings` (CATALOGUE_LOAN_DAYS,
 * CATALOGUE_MAX_RENEWALS, CATALOGUE_MAX_ACTIVE_LOANS): start-up writes them into it.
 */
export interface LendingSettings {
  /** The loan period in days, and the renewal period. */
  loanDays: number;
  maxRenewals: number;
  /** `undefined` for no limit (`none`). */
  maxActiveLoans: number | undefined;
}

export type PeriodUnit = 'days' | 'hours';
/** A limit a rule may lift: a number, or `'none'` for no limit. */
export type Limit = number | 'none';

/** A rule as the domain reads it: a scope (`null` for "any") and values (`null` for unset: the next rule's). */
export interface LoanRule {
  id: number;
  patron_category_id: number | null;
  item_type_id: number | null;
  branch_id: number | null;
  loan_period: number | null;
  loan_period_unit: PeriodUnit | null;
  renewals_allowed: number | null;
  renewal_period: number | null;
  renewal_period_unit: PeriodUnit | null;
  max_loans: Limit | null;
  holds_allowed: boolean | null;
  fine_per_day: number | null;
  grace_days: number | null;
  fine_cap: Limit | null;
  lost_after_days: Limit | null;
  lost_charge: number | null;
  lendable: boolean | null;
  floating: boolean | null;
  /** The names of its scope, for the words of a refusal or an explanation; absent where "any". */
  names?: ScopeNames;
}

export interface ScopeNames {
  patron_category?: string | undefined;
  item_type?: string | undefined;
  branch?: string | undefined;
}

/**
 * What a decision is about. `item_type_id` and `home_branch_id` may be `null` when no copy is concerned
 * (a hold on a book without copies): then only rules of any item type, or any branch, apply.
 */
export interface LendingFacts {
  patron_category_id: number;
  item_type_id: number | null;
  /** Where the loan happens: the librarian's desk, or the copy's home branch for a member's own borrow. */
  loan_branch_id: number | null;
  /** The copy's home branch. */
  home_branch_id: number | null;
}

/** The values a decision resolves; a period carries its unit. */
export const TERM_NAMES = [
  'loan_period',
  'renewals_allowed',
  'renewal_period',
  'max_loans',
  'holds_allowed',
  'fine_per_day',
  'grace_days',
  'fine_cap',
  'lost_after_days',
  'lost_charge',
  'lendable',
  'floating',
] as const;
export type TermName = (typeof TERM_NAMES)[number];

export interface Period {
  period: number;
  unit: PeriodUnit;
}

/** Every value resolved. */
export interface LendingTerms {
  loan_period: Period;
  renewals_allowed: number;
  renewal_period: Period;
  max_loans: Limit;
  holds_allowed: boolean;
  fine_per_day: number;
  grace_days: number;
  fine_cap: Limit;
  lost_after_days: Limit;
  lost_charge: number;
  lendable: boolean;
  floating: boolean;
}

/** How a rule's scope matched the facts. */
export interface RuleMatch {
  branch: 'loan branch' | 'home branch' | 'any';
  item_type: 'named' | 'any';
  patron_category: 'named' | 'any';
}

/** One rule considered, in precedence order: why it applies, and which values it supplied. */
export interface ConsideredRule {
  rule: LoanRule;
  match: RuleMatch;
  /** The match in words: "category Child, item type DVD, the loan branch". */
  why: string;
  supplied: TermName[];
}

export interface LendingDecision {
  facts: LendingFacts;
  terms: LendingTerms;
  /** The rule that supplied each value. */
  sources: Record<TermName, LoanRule>;
  /** Every rule that applies, most specific first. */
  considered: ConsideredRule[];
}

/** The candidates carry no default rule: a broken matrix, never a borrower's doing. */
export class MissingDefaultRule extends Error {
  constructor(term: TermName) {
    super(`no lending rule sets ${term}: the rule of any category, any item type and any branch is missing`);
  }
}

/** How a rule matches the facts, or `undefined` when it does not apply. */
export function matchRule(rule: LoanRule, facts: LendingFacts): RuleMatch | undefined {
  if (rule.patron_category_id !== null && rule.patron_category_id !== facts.patron_category_id) return undefined;
  if (rule.item_type_id !== null && rule.item_type_id !== facts.item_type_id) return undefined;
  let branch: RuleMatch['branch'] = 'any';
  if (rule.branch_id !== null) {
    if (rule.branch_id === facts.loan_branch_id) branch = 'loan branch';
    else if (rule.branch_id === facts.home_branch_id) branch = 'home branch';
    else return undefined;
  }
  return {
    branch,
    item_type: rule.item_type_id === null ? 'any' : 'named',
    patron_category: rule.patron_category_id === null ? 'any' : 'named',
  };
}

const BRANCH_RANK = { 'loan branch': 0, 'home branch': 1, any: 2 } as const;

/** Precedence, lexicographic: the branch (loan, home, any), then the item type, then the category (named first). */
function compareMatches(a: RuleMatch, b: RuleMatch): number {
  return (
    BRANCH_RANK[a.branch] - BRANCH_RANK[b.branch] ||
    Number(a.item_type === 'any') - Number(b.item_type === 'any') ||
    Number(a.patron_category === 'any') - Number(b.patron_category === 'any')
  );
}

/** The value a rule sets for a term, or `null` when it leaves it to the next rule. */
function valueSetBy(rule: LoanRule, term: TermName): LendingTerms[TermName] | null {
  switch (term) {
    case 'loan_period':
      return rule.loan_period === null ? null : { period: rule.loan_period, unit: rule.loan_period_unit ?? 'days' };
    case 'renewal_period':
      return rule.renewal_period === null
        ? null
        : { period: rule.renewal_period, unit: rule.renewal_period_unit ?? 'days' };
    default:
      return rule[term];
  }
}

/** Decides the terms for the facts from the candidate rules (those that do not apply are ignored). */
export function decideLending(rules: readonly LoanRule[], facts: LendingFacts): LendingDecision {
  const considered: ConsideredRule[] = [];
  for (const rule of rules) {
    const match = matchRule(rule, facts);
    if (match) considered.push({ rule, match, why: describeMatch(rule, match), supplied: [] });
  }
  considered.sort((a, b) => compareMatches(a.match, b.match) || a.rule.id - b.rule.id);
  const terms: Partial<Record<TermName, unknown>> = {};
  const sources: Partial<Record<TermName, LoanRule>> = {};
  for (const term of TERM_NAMES) {
    const supplier = considered.find((each) => valueSetBy(each.rule, term) !== null);
    if (!supplier) throw new MissingDefaultRule(term);
    terms[term] = valueSetBy(supplier.rule, term);
    sources[term] = supplier.rule;
    supplier.supplied.push(term);
  }
  return {
    facts,
    terms: terms as LendingTerms,
    sources: sources as Record<TermName, LoanRule>,
    considered,
  };
}

/** A rule's scope in words: "category Child × item type DVD × any branch". */
export function describeScope(rule: LoanRule): string {
  const names = rule.names ?? {};
  const category =
    rule.patron_category_id === null ? 'any category' : `category ${names.patron_category ?? rule.patron_category_id}`;
  const type = rule.item_type_id === null ? 'any item type' : `item type ${names.item_type ?? rule.item_type_id}`;
  const branch = rule.branch_id === null ? 'any branch' : `branch ${names.branch ?? rule.branch_id}`;
  return `${category} \u00d7 ${type} \u00d7 ${branch}`;
}

function describeMatch(rule: LoanRule, match: RuleMatch): string {
  const names = rule.names ?? {};
  const category =
    match.patron_category === 'any'
      ? 'any category'
      : `the borrower's category (${names.patron_category ?? rule.patron_category_id})`;
  const type =
    match.item_type === 'any' ? 'any item type' : `the copy's item type (${names.item_type ?? rule.item_type_id})`;
  const branch =
    match.branch === 'any'
      ? 'any branch'
      : `the ${match.branch === 'loan branch' ? 'branch lending it' : "copy's home branch"} (${names.branch ?? rule.branch_id})`;
  return `applies to ${category}, ${type} and ${branch}`;
}

/**
 * Whose loans count against the `max_loans` of the rule that supplied it: the borrower's active loans of
 * its item type if it names one, lent at its branch if it names one.
 */
export interface LoanCountScope {
  item_type_id: number | null;
  branch_id: number | null;
}

export function maxLoansScope(decision: LendingDecision): LoanCountScope {
  const rule = decision.sources.max_loans;
  return { item_type_id: rule.item_type_id, branch_id: rule.branch_id };
}

/** A borrower's active loans of one kind: copies of one item type, lent at one branch. */
export interface LoansOfKind {
  item_type_id: number;
  branch_id: number;
  count: number;
}

/** How many of the borrower's active loans (by kind) count in the scope: as the database counts them. */
export function countLoansInScope(loans: readonly LoansOfKind[], scope: LoanCountScope): number {
  let count = 0;
  for (const kind of loans) {
    if (scope.item_type_id !== null && kind.item_type_id !== scope.item_type_id) continue;
    if (scope.branch_id !== null && kind.branch_id !== scope.branch_id) continue;
    count += kind.count;
  }
  return count;
}

/** Why the decision refuses a loan: the copy is not lent, or the borrower has as many out as the rule allows. */
export function lendingRefusalReason(decision: LendingDecision, loansInScope: number): string | undefined {
  const { terms, sources } = decision;
  if (!terms.lendable) {
    const rule = sources.lendable;
    return `${whatIsLent(rule)} is not lent${toWhom(rule)}${where(rule)} (rule ${rule.id})`;
  }
  if (terms.max_loans !== 'none' && loansInScope >= terms.max_loans) {
    const rule = sources.max_loans;
    const who = rule.patron_category_id === null ? 'a borrower' : `members of category ${categoryName(rule)}`;
    const what = rule.item_type_id === null ? 'loans' : `items of type ${typeName(rule)}`;
    const kind = rule.item_type_id === null && rule.branch_id === null ? '' : ' of that kind';
    return `${who} may have ${terms.max_loans} ${what} out${where(rule)} at once (rule ${rule.id}): the borrower already has ${loansInScope} active loans${kind}`;
  }
  return undefined;
}

/** Why renewing is refused by the terms: as often renewed as the rule allows. */
export function renewalRefusalReason(decision: LendingDecision, renewals: number): string | undefined {
  return renewalLimitReason(renewals, decision.terms.renewals_allowed, decision.sources.renewals_allowed);
}

/**
 * Why a loan renewed `renewals` times may not be renewed again under a limit of `allowed`, naming the rule
 * that set the limit where it is known (a loan's stored terms alone do not say which rule gave them).
 */
export function renewalLimitReason(renewals: number, allowed: number, rule?: LoanRule): string | undefined {
  if (renewals < allowed) return undefined;
  const source = rule ? `, rule ${rule.id}${scopeSuffix(rule)}` : '';
  return `renewed as often as a loan may be (${allowed} times${source})`;
}

/** Why a hold is refused by the terms. */
export function holdRefusalReason(decision: LendingDecision): string | undefined {
  if (decision.terms.holds_allowed) return undefined;
  const rule = decision.sources.holds_allowed;
  return `holds are not taken on ${whatIsLent(rule).replace(/^this copy/, 'this book')}${toWhom(rule)}${where(rule)} (rule ${rule.id})`;
}

function categoryName(rule: LoanRule): string {
  return String(rule.names?.patron_category ?? rule.patron_category_id);
}

function typeName(rule: LoanRule): string {
  return String(rule.names?.item_type ?? rule.item_type_id);
}

function whatIsLent(rule: LoanRule): string {
  return rule.item_type_id === null ? 'this copy' : `an item of type ${typeName(rule)}`;
}

function toWhom(rule: LoanRule): string {
  return rule.patron_category_id === null ? '' : ` to members of category ${categoryName(rule)}`;
}

function where(rule: LoanRule): string {
  return rule.branch_id === null ? '' : ` at ${rule.names?.branch ?? `branch ${rule.branch_id}`}`;
}

function scopeSuffix(rule: LoanRule): string {
  return rule.patron_category_id === null && rule.item_type_id === null && rule.branch_id === null
    ? ''
    : `: ${describeScope(rule)}`;
}
