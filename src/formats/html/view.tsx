/**
 * @module The browsable HTML view of any resource: state as readable fields, links as `<a rel>`, member
 * items as a table, and every control as a `<form rel>` with inputs typed from its fields. Generic: it
 * knows the model, not books or loans. Every value goes through JSX, which escapes it.
 */
import type { FC } from 'hono/jsx';
import type { Control, Field, Link, Resource, ResourceStream } from '../../hypermedia/model.js';
import type { ErrorContent, PageContext } from '../format.js';

const PAGING = ['first', 'prev', 'next', 'last'];
const PAGING_LABELS: Record<string, string> = { first: '« First', prev: '‹ Previous', next: 'Next ›', last: 'Last »' };

/** A whole page for a resource. */
export function resourcePage(resource: Resource, page: PageContext | undefined): string {
  const title = titleOf(resource);
  return document(
    title,
    page,
    <>
      <h1>{title}</h1>
      <Links links={resource.links.filter((l) => !PAGING.includes(l.rel) && l.rel !== 'self' && !l.templated)} />
      <State state={resource.state} />
      {resource.items && <Items items={resource.items} />}
      <Pager links={resource.links} />
      <Controls controls={resource.controls} />
    </>,
  );
}

/** A whole collection as a plain list, written item by item. */
export async function* streamList(stream: ResourceStream): AsyncGenerator<string> {
  yield '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>catalogue</title></head><body><ul>';
  for await (const batch of stream.items) {
    for (const item of batch) {
      const self = item.links.find((l) => l.rel === 'self')?.href;
      const name = String(item.state.title ?? item.state.name ?? item.state.id ?? '');
      yield String(
        <li>
          <a rel="item" href={self}>
            {name}
          </a>
        </li>,
      );
    }
  }
  yield '</ul></body></html>';
}

/** A page for an error: the message, and each field's problem by name. */
export function errorPage(error: ErrorContent, page: PageContext | undefined): string {
  return document(
    `Error ${error.code}`,
    page,
    <section class="error" role="alert">
      <h1>
        {error.code} — {error.message}
      </h1>
      {error.details && (
        <ul>
          {Object.entries(error.details).map(([name, problem]) => (
            <li data-field={name}>
              <strong>{name}</strong> {problem}
            </li>
          ))}
        </ul>
      )}
      <p>
        <button type="button" data-back hidden>
          Go back
        </button>{' '}
        <a rel="home" href={page?.home ?? '/'}>
          Catalogue home
        </a>
      </p>
    </section>,
  );
}

function document(title: string, page: PageContext | undefined, body: unknown): string {
  const home = page?.home ?? '/';
  const base = home.replace(/\/$/, '');
  const html = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title} · catalogue</title>
        {/* No favicon to fetch: without this every page view asks for /favicon.ico and gets a 404. */}
        <link rel="icon" href="data:," />
        <link rel="stylesheet" href={`${base}/assets/catalogue.css`} />
        <script src={`${base}/assets/catalogue.js`} defer />
      </head>
      <body>
        <header>
          <a rel="home" href={home} class="brand">
            catalogue
          </a>
        </header>
        <main>{body}</main>
      </body>
    </html>
  );
  return `<!DOCTYPE html>${html}`;
}

function titleOf(resource: Resource): string {
  const { state } = resource;
  if (typeof state.title === 'string') return state.title;
  if (typeof state.name === 'string' && resource.kind !== 'root') return state.name;
  const labels: Record<string, string> = {
    root: 'Library catalogue',
    'book-page': 'Books',
    'author-page': 'Authors',
    'user-page': 'Users',
    'loan-page': 'Loans',
    'token-page': 'Tokens',
    loan: `Loan ${String(state.id ?? '')}`,
    token: `Token ${String(state.id ?? '')}`,
  };
  return labels[resource.kind] ?? resource.kind;
}

const Links: FC<{ links: Link[] }> = ({ links }) =>
  links.length === 0 ? null : (
    <nav class="links" aria-label="Related">
      {links.map((link) => (
        <a rel={link.rel} href={link.href}>
          {link.title ?? label(link.rel)}
        </a>
      ))}
    </nav>
  );

const Pager: FC<{ links: Link[] }> = ({ links }) => {
  const paging = PAGING.map((rel) => links.find((l) => l.rel === rel)).filter((l): l is Link => l !== undefined);
  if (paging.length === 0) return null;
  return (
    <nav class="pager" aria-label="Pages">
      {paging.map((link) => (
        <a rel={link.rel} href={link.href}>
          {PAGING_LABELS[link.rel]}
        </a>
      ))}
    </nav>
  );
};

const State: FC<{ state: Record<string, unknown> }> = ({ state }) => {
  const entries = Object.entries(state).filter(([name]) => name !== 'description');
  return (
    <>
      {typeof state.description === 'string' && <p class="description">{state.description}</p>}
      {entries.length > 0 && (
        <dl class="state">
          {entries.map(([name, value]) => (
            <>
              <dt>{label(name)}</dt>
              <dd data-field={name}>{isRecord(value) ? <State state={value} /> : show(value)}</dd>
            </>
          ))}
        </dl>
      )}
    </>
  );
};

const Items: FC<{ items: Resource[] }> = ({ items }) => {
  if (items.length === 0) return <p class="empty">Nothing here.</p>;
  const columns = [...new Set(items.flatMap((item) => Object.keys(item.state)))];
  // The item's link sits on its most telling field: the title or name, else the first.
  const linked = columns.find((name) => name === 'title' || name === 'name') ?? columns[0];
  const linkRels = [...new Set(items.flatMap((item) => item.links.map((l) => l.rel)))].filter(
    (rel) => rel !== 'self' && rel !== 'collection',
  );
  return (
    <div class="table">
      <table>
        <thead>
          <tr>
            {columns.map((name) => (
              <th scope="col">{label(name)}</th>
            ))}
            {linkRels.map((rel) => (
              <th scope="col">{label(rel)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map((item) => {
            const self = item.links.find((l) => l.rel === 'self');
            return (
              <tr>
                {columns.map((name) => (
                  <td data-field={name}>
                    {name === linked && self ? (
                      <a rel="item" href={self.href}>
                        {show(item.state[name])}
                      </a>
                    ) : (
                      show(item.state[name])
                    )}
                  </td>
                ))}
                {linkRels.map((rel) => {
                  const link = item.links.find((l) => l.rel === rel);
                  return (
                    <td>
                      {link && (
                        <a rel={rel} href={link.href}>
                          {link.title ?? label(rel)}
                        </a>
                      )}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
};

const Controls: FC<{ controls: Control[] }> = ({ controls }) =>
  controls.length === 0 ? null : (
    <section class="controls">
      {controls.map((control) => (
        <ControlForm control={control} />
      ))}
    </section>
  );

/**
 * A control as a form. GET and POST are native; PUT, PATCH and DELETE post with `_method`, which the
 * service accepts from form posts only, and the script upgrades them to real requests with JSON bodies.
 */
const ControlForm: FC<{ control: Control }> = ({ control }) => {
  const native = control.method === 'GET' ? 'get' : 'post';
  const id = `control-${control.name}`;
  return (
    <form
      rel={control.name}
      method={native}
      action={control.href}
      id={id}
      data-method={control.method}
      class={`control control-${control.name}`}
    >
      <fieldset>
        <legend>{control.title ?? label(control.name)}</legend>
        {native === 'post' && control.method !== 'POST' && (
          <input type="hidden" name="_method" value={control.method} />
        )}
        {control.fields.map((field) => (
          <FieldInput field={field} formId={id} />
        ))}
        <p class="form-error" role="alert" hidden />
        <button type="submit" class={control.method === 'DELETE' ? 'danger' : undefined}>
          {control.title ?? label(control.name)}
        </button>
      </fieldset>
    </form>
  );
};

const FieldInput: FC<{ field: Field; formId: string }> = ({ field, formId }) => {
  const id = `${formId}-${field.name}`;
  const common = {
    id,
    name: field.name,
    required: field.required,
    'data-type': field.type,
  };
  let input: unknown;
  if (field.enum) {
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
  } else if (field.type === 'boolean') {
    input = <input {...common} type="checkbox" value="true" checked={field.value === true} />;
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
        data-options={field.options?.href}
        data-option-value={field.options?.valueField}
        data-option-prompt={field.options?.promptField}
        list={field.options ? `${id}-choices` : undefined}
      />
    );
  } else {
    input = (
      <input
        {...common}
        type={field.type === 'date' ? 'date' : field.name === 'token' ? 'password' : 'text'}
        maxlength={field.maxLength}
        value={field.value === undefined ? undefined : String(field.value)}
        autocomplete={field.name === 'token' ? 'current-password' : undefined}
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
      {field.options && (
        <>
          <datalist id={`${id}-choices`} />
          <a class="choices" href={field.options.href} target="_blank" rel="noopener">
            look up {label(field.name)} values
          </a>
        </>
      )}
      <small class="field-error" data-error-for={field.name} role="alert" hidden />
    </p>
  );
};

function label(name: string): string {
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * An instant (ISO 8601 with a time) is a `<time>` that may wrap between its date and its time of day but
 * nowhere else (not at the date's hyphens); its text is the value unchanged. Anything else is text.
 */
function show(value: unknown): unknown {
  if (typeof value !== 'string' || !INSTANT.test(value)) return text(value);
  const at = value.indexOf('T');
  return (
    <time datetime={value}>
      <span>{value.slice(0, at)}</span>
      <wbr />
      <span>{value.slice(at)}</span>
    </time>
  );
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

function text(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
