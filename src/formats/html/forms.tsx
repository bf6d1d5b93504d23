/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
/**
 * @module Controls as forms: each control a `<form rel>` with inputs typed from its fields, the way a
 * person meets them (one edit form, deletions confirmed, rarely needed fields tucked away).
 */
import { importFileAccept, importFilesDescribed } from '../../domain/imports/media-types.js';
import { type Control, type Field, isInline } from '../../hypermedia/model.js';
import type { SessionView } from '../format.js';
// biome-ignore lint/correctness/noUnusedImports: the JSX below compiles to h(…) and Fragment (the pragmas above).
import { type FC, Fragment, h, type PropsWithChildren } from './jsx.js';
import { label } from './parts.js';

/**
 * The controls as a person meets them: sign in and out live in the page header; where both `update` (PUT)
 * and `edit` (PATCH) change the same resource, the one form is `edit`, since both change only the fields
 * sent (generic clients keep both controls).
 */
export function forPeople(controls: Control[], session: SessionView | undefined): Control[] {
  const inHeader = new Set(session?.controls.map((c) => c.name));
  return controls.filter(
    (control) =>
      !inHeader.has(control.name) &&
      !(control.name === 'update' && controls.some((c) => c.name === 'edit' && c.href === control.href)),
  );
}

export const Controls: FC<{ controls: Control[] }> = ({ controls }) =>
  controls.length === 0 ? null : (
    <section class="controls">
      {controls.map((control) => (
        <ControlForm control={control} />
      ))}
    </section>
  );

/**
 * The form element of a control. GET and POST are native; PUT, PATCH and DELETE post with `_method`,
 * which the service accepts from form posts only, and the script upgrades them to real requests with
 * JSON bodies.
 */
export const FormOf: FC<PropsWithChildren<{ control: Control; id: string }>> = ({ control, id, children }) => (
  <form
    rel={control.name}
    method={control.method === 'GET' ? 'get' : 'post'}
    action={control.href}
    id={id}
    data-method={control.method}
    class={`control control-${control.name}`}
  >
    {control.method !== 'GET' && control.method !== 'POST' && (
      <input type="hidden" name="_method" value={control.method} />
    )}
    {children}
  </form>
);

/** A control as a form: its fields, the rarely needed ones under "More options". */
export const ControlForm: FC<{ control: Control }> = ({ control }) => {
  if (control.method === 'DELETE') return <ConfirmedForm control={control} />;
  if (isUpload(control)) return <UploadForm control={control} />;
  const id = `control-${control.name}`;
  const more = control.fields.filter((f) => MORE_OPTIONS.includes(f.name));
  return (
    <FormOf control={control} id={id}>
      <fieldset>
        <legend>{control.title ?? label(control.name)}</legend>
        {control.fields
          .filter((f) => !more.includes(f))
          .map((field) => (
            <FieldInput field={field} formId={id} control={control.name} />
          ))}
        {more.length > 0 && (
          <details class="more">
            <summary>More options</summary>
            {more.map((field) => (
              <FieldInput field={field} formId={id} control={control.name} />
            ))}
          </details>
        )}
        <p class="form-error" role="alert" hidden />
        <button type="submit">{control.title ?? label(control.name)}</button>
      </fieldset>
    </FormOf>
  );
};

/** A control whose body is a file (an import) rather than fields. */
function isUpload(control: Control): boolean {
  return control.method === 'POST' && control.contentType !== undefined && control.contentType !== 'application/json';
}

/**
 * A file sent as it is: a native multipart form, which the script leaves alone (it sends fields as JSON),
 * so the browser streams the file and shows the answer, the report, as the next page.
 */
const UploadForm: FC<{ control: Control }> = ({ control }) => {
  const id = `control-${control.name}`;
  return (
    <form
      rel={control.name}
      method="post"
      action={control.href}
      id={id}
      enctype="multipart/form-data"
      class={`control control-${control.name}`}
    >
      <fieldset>
        <legend>{control.title ?? label(control.name)}</legend>
        <p class="field">
          <label for={`${id}-file`}>
            File<span class="required"> *</span>
          </label>
          <input id={`${id}-file`} name="file" type="file" required accept={importFileAccept} />
          <small class="hint">{importFilesDescribed}</small>
        </p>
        <button type="submit">{control.title ?? label(control.name)}</button>
      </fieldset>
    </form>
  );
};

/**
 * A search's fields a person rarely needs: exact matches, sparse fields and facets, out of the way until
 * asked for.
 */
const MORE_OPTIONS = ['filter', 'fields', 'facets'];

/**
 * A deletion asks first, script or not: the form with the real button opens from a disclosure, and says
 * what cannot be undone.
 */
const ConfirmedForm: FC<{ control: Control }> = ({ control }) => {
  const id = `control-${control.name}`;
  const title = control.title ?? label(control.name);
  return (
    <details class="confirm">
      <summary>{title}…</summary>
      <FormOf control={control} id={id}>
        <p>This cannot be undone.</p>
        <p class="form-error" role="alert" hidden />
        <button type="submit" class="danger">
          Yes, {title.charAt(0).toLowerCase()}
          {title.slice(1)}
        </button>
      </FormOf>
    </details>
  );
};

/** Fields whose text is a secret: typed unseen. */
const SECRET_FIELDS = ['token', 'pin', 'current_pin'];

/**
 * What a browser may fill a field with, by control (HTML's autofill names): the card and PIN of a sign-in
 * are the credentials a password manager keeps; a new PIN is a new password. A token is not one to offer.
 */
const AUTOFILL: Record<string, Record<string, string>> = {
  login: { card_number: 'username', pin: 'current-password', token: 'off' },
  'set-pin': { current_pin: 'current-password', pin: 'new-password' },
};

export const FieldInput: FC<{ field: Field; formId: string; control?: string }> = ({ field, formId, control }) => {
  const id = `${formId}-${field.name}`;
  const common = {
    id,
    name: field.name,
    required: field.required,
    'data-type': field.type,
    // A change that empties it clears it (sends null); a list is typed one value a line.
    'data-nullable': field.nullable ? '' : undefined,
    'data-multiple': field.multiple ? '' : undefined,
  };
  const remote = field.options && !isInline(field.options) ? field.options : undefined;
  let input: unknown;
  if (field.options && isInline(field.options)) {
    input = (
      <select {...common}>
        {field.options.map((choice) => (
          <option value={choice.value} selected={field.value !== undefined && String(field.value) === choice.value}>
            {choice.prompt}
          </option>
        ))}
      </select>
    );
  } else if (field.enum) {
    input = (
      <select {...common}>
        {!field.required && <option value="" />}
        {field.enum.map((choice) => (
          <option value={choice} selected={field.value === choice}>
            {choice}
          </option>
        ))}
      </select>
    );
  } else if (field.multiple) {
    input = (
      <textarea {...common} rows={Math.min(field.maxItems ?? 4, 4)} aria-describedby={`${id}-hint`}>
        {Array.isArray(field.value) ? field.value.join('\n') : ''}
      </textarea>
    );
  } else if (field.type === 'boolean') {
    input = <input {...common} type="checkbox" value="true" checked={field.value === true} />;
  } else if (field.type === 'integer' && field.unlimited) {
    // A number, or "none" for no limit: a number input could not take the word.
    input = (
      <input
        {...common}
        type="text"
        inputmode="numeric"
        value={field.value === undefined ? undefined : String(field.value)}
        aria-describedby={`${id}-hint`}
      />
    );
  } else if (field.type === 'integer') {
    input = (
      <input
        {...common}
        type="number"
        step="1"
        inputmode="numeric"
        min={field.min}
        max={field.max}
        value={field.value === undefined ? undefined : String(field.value)}
        data-options={remote?.href}
        data-option-value={remote?.valueField}
        data-option-prompt={remote?.promptField}
      />
    );
  } else {
    input = (
      <input
        {...common}
        type={field.type === 'date' ? 'date' : SECRET_FIELDS.includes(field.name) ? 'password' : 'text'}
        maxlength={field.maxLength}
        value={field.value === undefined ? undefined : String(field.value)}
        autocomplete={control === undefined ? undefined : AUTOFILL[control]?.[field.name]}
      />
    );
  }
  return (
    <p class="field">
      <label for={id}>
        {field.title ?? label(field.name)}
        {field.required && <span class="required"> *</span>}
      </label>
      {input}
      {field.unlimited && (
        <small class="hint" id={`${id}-hint`}>
          A number, or none for no limit
        </small>
      )}
      {field.multiple && (
        <small class="hint" id={`${id}-hint`}>
          One a line{field.maxItems !== undefined && `, at most ${field.maxItems}`}
        </small>
      )}
      {remote && (
        <a class="choices" href={remote.href} target="_blank" rel="noopener">
          Look up the {(field.title ?? label(field.name)).toLowerCase()}’s number
        </a>
      )}
      <small class="field-error" data-error-for={field.name} role="alert" hidden />
    </p>
  );
};
