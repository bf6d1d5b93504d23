/**
 * @module `update` (PUT) and `edit` (PATCH) of a stored resource: one change declared once, offered under
 * both names because generic clients prefer one or the other. Both change only the fields sent (the seed's
 * rule for PUT), conditional on `If-Match` when given.
 */
import type { InputField, InputOf } from '../domain/input.js';
import type { Decision } from '../domain/policy.js';
import type { Field, FieldOptions } from '../hypermedia/model.js';
import { affordance } from './affordance.js';
import type { RenderContext } from './context.js';
import { inputFields } from './fields.js';

/** What a change acts on: the resource's id, and its current values where known (they prefill the fields). */
export type ChangeSubject<Fields extends readonly InputField[]> = { id: number } & Partial<InputOf<Fields>>;

export interface ChangeSpec<Fields extends readonly InputField[]> {
  /** What the resource is called in titles and summaries: `book`. */
  noun: string;
  path: { readonly text: string };
  /** Its writable fields; a change takes any non-empty subset. */
  fields: Fields;
  /** Where a field's choices come from (`author_id`: the authors). */
  choices?: (ctx: RenderContext) => Record<string, FieldOptions>;
  errors?: readonly number[];
  appears: string;
  allows(ctx: RenderContext, subject: ChangeSubject<Fields>): Decision;
  href(ctx: RenderContext, subject: ChangeSubject<Fields>): string;
}

/** Both controls of a change; the current values of the subject prefill their fields. */
export function changeAffordances<const Fields extends readonly InputField[]>(spec: ChangeSpec<Fields>) {
  const { noun, fields, choices, ...rest } = spec;
  // Both controls of one subject in one rendering carry the same fields: built once, for the first.
  const built = new WeakMap<ChangeSubject<Fields>, { ctx: RenderContext; fields: Field[] }>();
  const fieldsOf = (ctx: RenderContext, subject: ChangeSubject<Fields>) => {
    const last = built.get(subject);
    if (last?.ctx === ctx) return last.fields;
    const made = inputFields(fields, { values: subject, mode: 'change', ...(choices && { choices: choices(ctx) }) });
    built.set(subject, { ctx, fields: made });
    return made;
  };
  const declare = (name: 'update' | 'edit', verb: string) =>
    affordance({
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
