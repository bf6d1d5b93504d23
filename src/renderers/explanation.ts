/**
 * @module Renders why a loan gets its terms: each value with the rule that supplied it (the items, a table
 * in HTML), and every rule considered in precedence order with why it applies.
 */
import type { RenderContext } from '../affordances/context.js';
import {
  describeScope,
  type LendingDecision,
  type LendingFacts,
  type LendingTerms,
  TERM_NAMES,
  type TermName,
} from '../domain/lending-rules.js';
import type { Link, Resource } from '../hypermedia/model.js';

/** What is explained: a book's loan as it would be made now, or a loan as it was made. */
export type Explained =
  | {
      of: 'book';
      bookId: number;
      borrowerId: number;
      copyId: number;
      decision: LendingDecision;
      /** When a loan made now would be due, and why the rules would refuse it, if they would. */
      dueAt: string;
      refusal: string | undefined;
    }
  | { of: 'loan'; loanId: number; kept: KeptTerms; decision: LendingDecision };

/** A loan's terms as it keeps them, with the id of the rule that supplied each. */
export interface KeptTerms {
  terms: Omit<LendingTerms, 'renewal_period' | 'max_loans' | 'holds_allowed' | 'lendable'>;
  rules: Partial<Record<TermName, number>>;
}

export function renderExplanation(explained: Explained, ctx: RenderContext): Resource {
  const { uris } = ctx;
  const { decision } = explained;
  const self = explained.of === 'book' ? uris.bookExplain(explained.bookId) : uris.loanExplain(explained.loanId);
  const links: Link[] = [
    { rel: 'self', href: self },
    explained.of === 'book'
      ? { rel: 'book', href: uris.book(explained.bookId) }
      : { rel: 'loan', href: uris.loan(explained.loanId) },
  ];
  const items =
    explained.of === 'book'
      ? TERM_NAMES.map((term) => termItem(ctx, term, decision.terms[term], decision.sources[term].id))
      : loanItems(ctx, explained.kept);
  return {
    kind: 'explanation',
    state: {
      ...(explained.of === 'book'
        ? {
            book_id: explained.bookId,
            borrower_id: explained.borrowerId,
            copy_id: explained.copyId,
            due_at: explained.dueAt,
            refusal: explained.refusal ?? null,
          }
        : { loan_id: explained.loanId }),
      ...factsState(decision.facts),
      precedence:
        'the branch lending it, then the copy\u2019s home branch, then any branch; within each, a named item type before any; then a named category before any. Each value comes from the first rule that sets it.',
      considered: decision.considered.map((each) => ({
        rule_id: each.rule.id,
        scope: describeScope(each.rule),
        why: each.why,
        supplied: each.supplied,
      })),
      ...(explained.of === 'loan' && {
        renewal_now: `a renewal now would decide again: ${decision.terms.renewals_allowed} renewals of ${periodText(decision.terms.renewal_period)} (rules ${decision.sources.renewals_allowed.id} and ${decision.sources.renewal_period.id})`,
      }),
    },
    links,
    controls: [],
    items,
  };
}

function factsState(facts: LendingFacts) {
  return {
    patron_category_id: facts.patron_category_id,
    item_type_id: facts.item_type_id,
    loan_branch_id: facts.loan_branch_id,
    home_branch_id: facts.home_branch_id,
  };
}

/** The terms a loan keeps; those decided only at lending (the cap, holds, lendable) are not kept. */
function loanItems(ctx: RenderContext, kept: KeptTerms): Resource[] {
  return (Object.keys(kept.terms) as (keyof KeptTerms['terms'])[]).map((term) =>
    termItem(ctx, term, kept.terms[term], kept.rules[term]),
  );
}

function termItem(ctx: RenderContext, term: TermName, value: unknown, ruleId: number | undefined): Resource {
  const links: Link[] =
    ruleId === undefined ? [] : [{ rel: 'loan_rule', href: ctx.uris.loanRule(ruleId), title: `Rule ${ruleId}` }];
  return {
    kind: 'term',
    state: { term, ...valueState(value), rule_id: ruleId ?? null },
    links,
    controls: [],
  };
}

function periodText(period: { period: number; unit: string }): string {
  return `${period.period} ${period.period === 1 ? period.unit.replace(/s$/, '') : period.unit}`;
}

/** A value as the table shows it: a period as its number and `unit`; `none` for no limit. */
function valueState(value: unknown): { value: unknown; unit: string | null } {
  if (typeof value === 'object' && value !== null && 'period' in value) {
    const period = value as { period: number; unit: string };
    return { value: period.period, unit: period.unit };
  }
  return { value, unit: null };
}
