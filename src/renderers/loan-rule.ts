/**
 * @module Renders a lending rule: its scope (null: any) and values (null: unset), the library's currency
 * its money is in, links to what its scope names, and the controls to change or delete it.
 */
import { offered } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import { addLoanRule, changeLoanRule, deleteLoanRule, type RuleChoices } from '../affordances/loan-rules.js';
import { type StoredLoanRule, VALUE_FIELDS } from '../domain/loan-rule.js';
import type { Link, Resource } from '../hypermedia/model.js';
import { firstPage } from '../hypermedia/uris.js';
import type { Collection } from './collection.js';
import { pick } from './pick.js';

export interface LoanRuleRenderOptions {
  /** The library's currency (ISO 4217), which the rule's money is counted in. */
  currency: string;
  /** The lists the scope fields of the rule's controls offer; without them, the fields offer no choices. */
  choices?: RuleChoices;
  fields?: string[] | undefined;
  asItem?: boolean;
}

export function renderLoanRule(rule: StoredLoanRule, ctx: RenderContext, options: LoanRuleRenderOptions): Resource {
  const { uris } = ctx;
  const state: Record<string, unknown> = {
    id: rule.id,
    patron_category_id: rule.patron_category_id,
    item_type_id: rule.item_type_id,
    branch_id: rule.branch_id,
    ...Object.fromEntries(VALUE_FIELDS.map((name) => [name, rule[name]])),
    currency: options.currency,
    from_settings: rule.from_settings,
  };
  const links: Link[] = [
    { rel: 'self', href: uris.loanRule(rule.id) },
    { rel: 'collection', href: uris.loanRules(firstPage) },
  ];
  if (rule.patron_category_id !== null) {
    const title = rule.patron_category_name ?? `Patron category ${rule.patron_category_id}`;
    links.push({ rel: 'patron_category', href: uris.patronCategory(rule.patron_category_id), title });
  }
  if (rule.item_type_id !== null) {
    const title = rule.item_type_name ?? `Item type ${rule.item_type_id}`;
    links.push({ rel: 'item_type', href: uris.itemType(rule.item_type_id), title });
  }
  if (rule.branch_id !== null) {
    links.push({
      rel: 'branch',
      href: uris.branch(rule.branch_id),
      title: rule.branch_name ?? `Branch ${rule.branch_id}`,
    });
  }
  const subject = { ...rule, ...(options.choices && { choices: options.choices }) };
  const resource: Resource = {
    kind: 'loan-rule',
    state: pick(state, options.fields),
    links,
    controls: options.asItem ? [] : offered(ctx, subject, [changeLoanRule.update, changeLoanRule.edit, deleteLoanRule]),
  };
  resource.version = rule.version;
  return resource;
}

/** The rules matrix: `create` offers the lists' entries for the scope. */
export function loanRulesCollection(ctx: RenderContext, choices: RuleChoices): Collection {
  return {
    itemKind: 'loan-rule',
    uri: ctx.uris.loanRules,
    controls: offered(ctx, choices, [addLoanRule]),
    links: [],
  };
}
