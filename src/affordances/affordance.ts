/**
 * @module An affordance: a control declared once beside its route (name, path, fields, summary, predicate)
 * and read by everyone: renderers offer it, the handler authorizes and validates with it, docs describe it.
 */
import { type BodyInput, validateInput } from '../domain/input.js';
import { authorize, type Decision } from '../domain/policy.js';
import type { Control, Field } from '../hypermedia/model.js';
import { type ControlName, controls, type Method } from '../hypermedia/vocabulary.js';
import type { RenderContext } from './context.js';
import { inputFields, listingFields } from './fields.js';
import type { Operation, OperationBody } from './operation.js';

/** Requests of controls that carry a body carry JSON (forms are the HTML view's own translation). */
const JSON_BODY = 'application/json';

/** What is declared about a control; `Subject` is what it acts on (a book, a loan), `void` for none. */
export interface AffordanceSpec<Subject, Body extends OperationBody | undefined = OperationBody | undefined>
  extends Operation {
  /** The body it reads, checked against these fields: their declaration is the type of a valid body. */
  body?: Body;
  /** The control's name, from the vocabulary, which also fixes its method. */
  name: ControlName;
  /** The template of `paths` it submits to (the route registered at it serves it). */
  path: { readonly text: string };
  /** What a person sees on it. */
  title: string | ((subject: Subject) => string);
  /** Where and for whom it appears, in words; the profile lists these under the control's name. */
  appears: string;
  /** The policy's predicate: the control is offered exactly when it allows, and the request refused otherwise. */
  allows(ctx: RenderContext, subject: Subject): Decision;
  /** Its target for this subject: `path` expanded. */
  href(ctx: RenderContext, subject: Subject): string;
  /** Its fields with values and choices for this subject; by default the body's fields or the listing's parameters. */
  fields?(ctx: RenderContext, subject: Subject): Field[];
}

/** A declared control; `Input` is what its body is once validated (derived from its declared fields). */
export interface Affordance<Subject = void, Input = unknown> extends Readonly<AffordanceSpec<Subject>> {
  /** The method the vocabulary gives its name. */
  readonly method: Method;
  /**
   * The control for this subject as this caller may submit it, or `undefined` when the predicate refuses
   * (noted, with the decision, in `ctx.withheld` when the request asked why).
   */
  offer(ctx: RenderContext, subject: Subject): Control | undefined;
  /** Throws the predicate's refusal unless it allows: the handler's side of the same decision. */
  authorize(ctx: RenderContext, subject: Subject): void;
  /** The submitted body checked against the declared one (400 naming each bad field), as the input. */
  validate(submitted: unknown): Input;
}

/** Declares a control; the type of its validated input is read from the fields its body declares. */
export function affordance<Subject = void, const Body extends OperationBody | undefined = undefined>(
  spec: AffordanceSpec<Subject, Body>,
): Affordance<Subject, BodyInput<NonNullable<Body>>> {
  const method = controls[spec.name].method;
  // A control whose body is a file (an import) names the file's media type instead.
  const consumes = spec.consumes === undefined ? undefined : [spec.consumes].flat()[0];
  const contentType = spec.body ? { contentType: JSON_BODY } : consumes ? { contentType: consumes } : {};
  // Fields that do not depend on the subject are built once; a control is offered on many reads.
  const fixedFields = spec.fields ? undefined : Object.freeze(defaultFields(spec).map((f) => Object.freeze(f)));
  const { title } = spec;
  return {
    ...spec,
    method,
    offer(ctx, subject) {
      const decision = spec.allows(ctx, subject);
      if (!decision.allowed) {
        ctx.withheld?.set(spec.name, decision);
        return undefined;
      }
      return {
        name: spec.name,
        href: spec.href(ctx, subject),
        method,
        title: typeof title === 'string' ? title : title(subject),
        ...contentType,
        fields: spec.fields ? spec.fields(ctx, subject) : (fixedFields as Field[]),
      };
    },
    authorize(ctx, subject) {
      authorize(spec.allows(ctx, subject));
    },
    validate(submitted) {
      if (!spec.body) throw new Error(`the ${spec.name} control at ${spec.path.text} declares no body`);
      return validateInput(spec.body, submitted);
    },
  };
}

/** The controls of `affordances` the caller may submit on `subject`, in the order given. */
export function offered<Subject>(
  ctx: RenderContext,
  subject: Subject,
  affordances: readonly Affordance<Subject>[],
): Control[] {
  const found: Control[] = [];
  for (const each of affordances) {
    const control = each.offer(ctx, subject);
    if (control) found.push(control);
  }
  return found;
}

/** Whether an operation of the route table is a control's (an affordance) rather than a plain read. */
export function isAffordance(operation: Operation): operation is Affordance<unknown> {
  return 'offer' in operation;
}

/** The fields a control offers when its declaration adds nothing: what the route reads, typed. */
export function defaultFields(operation: Operation): Field[] {
  if (operation.body) return inputFields(operation.body.fields, { mode: operation.body.mode });
  if (operation.query) return inputFields(operation.query);
  if (operation.listing) {
    const { fields, author, sortChoices, facets } = operation.listing;
    return listingFields({ fieldNames: Object.keys(fields), author, sortChoices, facets });
  }
  return [];
}
