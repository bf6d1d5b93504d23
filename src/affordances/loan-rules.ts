/**
 * @module The controls on the lending rules: adding a rule, changing one (`update` and `edit`, both
 * changing only the fields sent), deleting one. Their scope fields offer "any" and the lists' entries.
 */
import type { ListEntry } from '../domain/lending-lists.js';
import { isDefaultRule, type LoanRule, loanRuleInputFields } from '../domain/loan-rule.js';
import type { FieldChoice, FieldOptions } from '../hypermedia/model.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';
import { inputFields } from './fields.js';

/** The entries a rule's scope may name, each list by name. */
export interface RuleChoices {
  patronCategories: readonly ListEntry[];
  itemTypes: readonly ListEntry[];
  branches: readonly ListEntry[];
}

/** A rule to change: its values prefill the fields. */
export type RuleSubject = { id: number } & Partial<LoanRule> & { choices?: RuleChoices };

const librarians = 'for librarians';

/** "any" (sent empty from a form: null), then the list's entries by name. */
function scopeOptions(entries: readonly ListEntry[]): FieldChoice[] {
  return [{ value: '', prompt: 'any' }, ...entries.map((entry) => ({ value: String(entry.id), prompt: entry.name }))];
}

function choicesOf(choices: RuleChoices | undefined): Record<string, FieldOptions> {
  if (!choices) return {};
  return {
    patron_category_id: scopeOptions(choices.patronCategories),
    item_type_id: scopeOptions(choices.itemTypes),
    branch_id: scopeOptions(choices.branches),
  };
}

export const addLoanRule = affordance<RuleChoices | undefined, { fields: typeof loanRuleInputFields; mode: 'create' }>({
  name: 'create',
  path: paths.loanRules,
  summary: 'Add a lending rule: a scope (null: any) and the values it sets (null or left out: unset)',
  body: { fields: loanRuleInputFields, mode: 'create' },
  errors: [409, 422],
  title: 'Add a lending rule',
  appears: `on the lending rules, ${librarians}`,
  allows: ({ policy, caller }) => policy.manageLending(caller),
  href: ({ uris }) => uris.loanRules(),
  fields: (_, choices) => inputFields(loanRuleInputFields, { mode: 'create', choices: choicesOf(choices) }),
});

function change(name: 'update' | 'edit', verb: string) {
  return affordance<RuleSubject, { fields: typeof loanRuleInputFields; mode: 'change' }>({
    name,
    path: paths.loanRule,
    summary:
      'Change the fields of a lending rule that are sent (null unsets a value); new loans and renewals follow it',
    body: { fields: loanRuleInputFields, mode: 'change' },
    conditional: true,
    errors: [409, 422],
    title: `${verb} lending rule`,
    appears: `on a lending rule, ${librarians}`,
    allows: ({ policy, caller }) => policy.manageLending(caller),
    href: ({ uris }, rule) => uris.loanRule(rule.id),
    fields: (_, rule) =>
      inputFields(loanRuleInputFields, { values: rule, mode: 'change', choices: choicesOf(rule.choices) }),
  });
}

export const changeLoanRule = { update: change('update', 'Update'), edit: change('edit', 'Edit') };

export const deleteLoanRule = affordance<Pick<LoanRule, 'id' | 'patron_category_id' | 'item_type_id' | 'branch_id'>>({
  name: 'delete',
  path: paths.loanRule,
  summary: 'Delete a lending rule (never the rule of any \u00d7 any \u00d7 any)',
  conditional: true,
  errors: [409],
  title: 'Delete lending rule',
  appears: `on a lending rule other than the rule of any \u00d7 any \u00d7 any, ${librarians}`,
  allows: ({ policy, caller }, rule) => policy.deleteLoanRule(caller, { id: rule.id, isDefault: isDefaultRule(rule) }),
  href: ({ uris }, rule) => uris.loanRule(rule.id),
});
