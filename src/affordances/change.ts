/**
 * @module `update` (PUT) and `edit` (PATCH) of a stored resource: one change declared once, offered under
 * both names because generic clients prefer one or the other. Both change only the fields sent (the seed's
 * rule for PUT), conditional on `If-Match` when given.
 */
import type { InputField } from '../domain/input.js';
import type { Decision } from '../domain/policy.js';
import type { Field, FieldOptions } from '../hypermedia/model.js';
import { type Affordance, affordance } from './affordance.js';
import type { RenderContext } from './context.js';
import { inputFields } from './fields.js';

/** What a change acts on: the resource's id, and its current values where known (they prefill the fields). */
export type ChangeSubject<Values> = { id: number } & Partial<Values>;

export interface ChangeSpec<Values> {
  /** What the resource is called in titles and summaries: `book`. */
  noun: string;
  path: { readonly text: string };
  /** Its writable fields; a change takes any non-empty subset. */
  fields: readonly InputField[];
  /** Where a field's choices come from (`author_id`: the authors). */
  choices?: (ctx: RenderContext) => Record<string, FieldOptions>;
  errors?: readonly number[];
  appears: string;
  allows(ctx: RenderContext, subject: ChangeSubject<Values>): Decision;
  href(ctx: RenderContext, subject: ChangeSubject<Values>): string;
}

/** Both controls of a change; the current values of the subject prefill their fields. */
export function changeAffordances<Values>(spec: ChangeSpec<Values>): {
  update: Affordance<ChangeSubject<Values>>;
  edit: Affordance<ChangeSubject<Values>>;
} {
  const { noun, fields, choices, ...rest } = spec;
  // One set of fields for both controls of a subject, as a renderer offers them one right after the other
  // (a format then writes them once). The last subject is all there is to remember: a WeakMap of every
  // subject cost a signed-in read more than building the fields twice.
  let lastSubject: ChangeSubject<Values> | undefined;
  let lastContext: RenderContext | undefined;
  let lastFields: Field[] = [];
  const fieldsOf = (ctx: RenderContext, subject: ChangeSubject<Values>) => {
    if (subject !== lastSubject || ctx !== lastContext) {
      lastFields = inputFields(fields, { values: subject, mode: 'change', ...(choices && { choices: choices(ctx) }) });
      lastSubject = subject;
      lastContext = ctx;
    }
    return lastFields;
  };
  const declare = (name: 'update' | 'edit', verb: string) =>
    affordance<ChangeSubject<Values>>({
      ...rest,
      name,
      summary: `Change the fields of a ${noun} that are sent`,
      title: `${verb} ${noun}`,
      body: { fields, mode: 'change' },
      conditional: true,
      fields: fieldsOf,
    });
  return { update: declare('update', 'Update'), edit: declare('edit', 'Edit') };
}
