/** @module A lending rule's scope and values as its reads select them: the rules resource and the decision. */
import { loanRules } from '../schema/index.js';

export const ruleColumns = {
  id: loanRules.id,
  patron_category_id: loanRules.patronCategoryId,
  item_type_id: loanRules.itemTypeId,
  branch_id: loanRules.branchId,
  loan_period: loanRules.loanPeriod,
  loan_period_unit: loanRules.loanPeriodUnit,
  renewals_allowed: loanRules.renewalsAllowed,
  renewal_period: loanRules.renewalPeriod,
  renewal_period_unit: loanRules.renewalPeriodUnit,
  max_loans: loanRules.maxLoans,
  holds_allowed: loanRules.holdsAllowed,
  fine_per_day: loanRules.finePerDay,
  grace_days: loanRules.graceDays,
  fine_cap: loanRules.fineCap,
  lost_after_days: loanRules.lostAfterDays,
  lost_charge: loanRules.lostCharge,
  lendable: loanRules.lendable,
  floating: loanRules.floating,
  no_limit: loanRules.noLimit,
};
