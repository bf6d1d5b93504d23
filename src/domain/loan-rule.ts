/**
 * @module A lending rule as clients read and write it: its scope (patron category × item type × branch,
 * `null` for any), and its values, each `null` when unset (the next rule in precedence supplies it) and the
 * limits also `"none"` for no limit. Money is in the minor units of the library's currency.
 */
import { UnprocessableEntity } from './errors.js';
import { type InputField, type InputOf, NO_LIMIT } from './input.js';
import { INT4_MAX } from './limits.js';

export const PERIOD_UNITS = ['days', 'hours'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];

/** The values that may be "none" (no limit) rather than a number, as `no_limit` lists them. */
export const LIMIT_FIELDS = ['max_loans', 'fine_cap', 'lost_after_days'] as const;
export type LimitField = (typeof LIMIT_FIELDS)[number];
type Limit = number | typeof NO_LIMIT | null;

/** What a rule is for: `null` in any of them is "any". */
export interface RuleScope {
  patron_category_id: number | null;
  item_type_id: number | null;
  branch_id: number | null;
}

/** What a rule sets; `null` is unset. */
export interface RuleValues {
  loan_period: number | null;
  loan_period_unit: PeriodUnit | null;
  renewals_allowed: number | null;
  renewal_period: number | null;
  renewal_period_unit: PeriodUnit | null;
  max_loans: Limit;
  holds_allowed: boolean | null;
  fine_per_day: number | null;
  grace_days: number | null;
  fine_cap: Limit;
  lost_after_days: Limit;
  lost_charge: number | null;
  lendable: boolean | null;
  floating: boolean | null;
}

export interface LoanRule extends RuleScope, RuleValues {
  id: number;
  /** The rule of any × any × any still follows the operator's settings (it was never changed). */
  from_settings: boolean;
}

/** A rule as stored: its version, and the names of what its scope names (for titles and the HTML table). */
export interface StoredLoanRule extends LoanRule {
  version: number;
  patron_category_name: string | null;
  item_type_name: string | null;
  branch_name: string | null;
}

export const SCOPE_FIELDS = ['patron_category_id', 'item_type_id', 'branch_id'] as const;
export const VALUE_FIELDS = [
  'loan_period',
  'loan_period_unit',
  'renewals_allowed',
  'renewal_period',
  'renewal_period_unit',
  'max_loans',
  'holds_allowed',
  'fine_per_day',
  'grace_days',
  'fine_cap',
  'lost_after_days',
  'lost_charge',
  'lendable',
  'floating',
] as const satisfies readonly (keyof RuleValues)[];

/** Every field of a rule's document but its id, in document order (the listing may select them). */
export const LOAN_RULE_FIELDS = [...SCOPE_FIELDS, ...VALUE_FIELDS, 'currency', 'from_settings'] as const;

/** The rule of any × any × any: where every value ends. */
export function isDefaultRule(scope: RuleScope): boolean {
  return scope.patron_category_id === null && scope.item_type_id === null && scope.branch_id === null;
}

const count = (name: string, title: string, min: number) =>
  ({ name, type: 'integer', required: false, nullable: true, min, max: INT4_MAX, title }) as const;
const money = (name: string, title: string) => count(name, `${title} (minor units)`, 0);
const unit = (name: string, title: string) =>
  ({ name, type: 'string', required: false, nullable: true, enum: PERIOD_UNITS, title }) as const;
const flag = (name: string, title: string) =>
  ({ name, type: 'boolean', required: false, nullable: true, title }) as const;
const scope = (name: string, title: string) =>
  ({ name, type: 'integer', required: false, nullable: true, min: 1, max: INT4_MAX, title }) as const;

/** What a client writes: any of the scope and values; `null` is any (scope) or unset (value). */
export const loanRuleInputFields = [
  scope('patron_category_id', 'Patron category'),
  scope('item_type_id', 'Item type'),
  scope('branch_id', 'Branch'),
  count('loan_period', 'Loan period', 1),
  unit('loan_period_unit', 'Loan period unit'),
  count('renewals_allowed', 'Renewals allowed', 0),
  count('renewal_period', 'Renewal period', 1),
  unit('renewal_period_unit', 'Renewal period unit'),
  { ...count('max_loans', 'Most loans out of this kind', 0), unlimited: true },
  flag('holds_allowed', 'Holds allowed'),
  money('fine_per_day', 'Fine per day'),
  count('grace_days', 'Grace days', 0),
  { ...money('fine_cap', 'Fine cap'), unlimited: true },
  { ...count('lost_after_days', 'Days overdue until lost', 1), unlimited: true },
  money('lost_charge', 'Lost item charge'),
  flag('lendable', 'Lendable'),
  flag('floating', 'Floating'),
] as const satisfies readonly InputField[];

export type LoanRuleInput = Partial<InputOf<typeof loanRuleInputFields>>;

/** The rule of any × any × any as the migration makes it, for a rule being created. */
const UNSET: RuleScope & RuleValues = {
  patron_category_id: null,
  item_type_id: null,
  branch_id: null,
  ...(Object.fromEntries(VALUE_FIELDS.map((name) => [name, null])) as unknown as RuleValues),
};

/**
 * A rule once `changes` are applied to `current` (a new rule: to nothing set). A period sent without its
 * unit takes days (or keeps the unit it had); a period unset takes its unit with it; a unit without a period
 * is refused, as is a scope change of the default rule or a default rule with a value unset.
 */
export function ruleAfter(
  current: (RuleScope & RuleValues) | undefined,
  changes: LoanRuleInput,
): RuleScope & RuleValues {
  const rule = { ...UNSET, ...(current && pickRule(current)), ...changes } as RuleScope & RuleValues;
  const problems: Record<string, string> = {};
  for (const [period, unitName] of [
    ['loan_period', 'loan_period_unit'],
    ['renewal_period', 'renewal_period_unit'],
  ] as const) {
    const unitSent = unitName in changes;
    if (rule[period] !== null && rule[unitName] === null) {
      if (unitSent) problems[unitName] = `cannot be unset while ${period} is set`;
      else rule[unitName] = 'days';
    } else if (rule[period] === null && rule[unitName] !== null) {
      if (unitSent || !(period in changes)) problems[unitName] = `needs a ${period}`;
      else rule[unitName] = null;
    }
  }
  if (current && isDefaultRule(current)) {
    for (const name of SCOPE_FIELDS) {
      if (rule[name] !== null) problems[name] = 'of the rule of any \u00d7 any \u00d7 any cannot change';
    }
  }
  if (isDefaultRule(rule)) {
    for (const name of VALUE_FIELDS) {
      if (rule[name] === null) problems[name] = 'is unset, but the rule of any \u00d7 any \u00d7 any sets every value';
    }
  }
  const named = Object.entries(problems);
  if (named.length > 0) {
    const summary = named.map(([name, problem]) => `${name} ${problem}`).join('; ');
    throw new UnprocessableEntity(`the rule cannot be so: ${summary}`, problems);
  }
  return rule;
}

function pickRule(rule: RuleScope & RuleValues): RuleScope & RuleValues {
  const picked: Record<string, unknown> = {};
  for (const name of [...SCOPE_FIELDS, ...VALUE_FIELDS]) picked[name] = rule[name];
  return picked as unknown as RuleScope & RuleValues;
}

/** A limit as stored: its column, and whether `no_limit` lists it. */
export function storedLimit(value: Limit): { value: number | null; none: boolean } {
  return value === NO_LIMIT ? { value: null, none: true } : { value, none: false };
}

/** A limit as read: "none" where `no_limit` lists it, else its column. */
export function readLimit(value: number | null, noLimit: readonly string[], name: LimitField): Limit {
  return noLimit.includes(name) ? NO_LIMIT : value;
}
