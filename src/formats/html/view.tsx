/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
/**
 * @module The browsable HTML view of any resource: state as readable fields, links as `<a rel>`, member
 * items as a table, and every control as a `<form rel>` with inputs typed from its fields. Generic: it
 * knows the model, not books or loans. Every value goes through JSX, which escapes it.
 */
import type { Control, Facet, Field, Link, Resource, ResourceStream } from '../../hypermedia/model.js';
import type { ErrorContent, ListingView, PageContext, SessionView } from '../format.js';
// biome-ignore lint/correctness/noUnusedImports: the JSX below compiles to h(…) and Fragment (the pragmas above).
import { escapeHtml, type FC, Fragment, type Html, h, type PropsWithChildren } from './jsx.js';

const PAGING = ['first', 'prev', 'next', 'last'];
const PAGING_LABELS: Record<string, string> = { first: '« First', prev: '‹ Previous', next: 'Next ›', last: 'Last »' };

/** A whole page for a resource. */
export function resourcePage(resource: Resource, page: PageContext | undefined): string {
  const title = titleOf(resource);
  // A field `x_id` whose link `x` has a title (a book's author) is shown as that title, linked: the link
  // then needs no place of its own.
  const named = namedFields(resource.items ?? [resource]);
  const shownLinks = resource.links.filter(
    (l) => !PAGING.includes(l.rel) && l.rel !== 'self' && !l.templated && (resource.items || !named.has(l.rel)),
  );
  const search = resource.items && resource.controls.find((c) => c.name === 'search' && c.method === 'GET');
  return document(
    title,
    page,
    <>
      <h1>{title}</h1>
      {search && <SearchBox control={search} listing={page?.listing} />}
      {resource.facets && <Facets facets={resource.facets} />}
      <Links links={shownLinks} />
      <State state={resource.state} links={resource.items ? [] : resource.links} named={named} />
      {resource.kind === 'suggestions' ? (
        <LinkList items={resource.items ?? []} />
      ) : (
        resource.items && <Items items={resource.items} named={named} sort={page?.listing?.sort} />
      )}
      <Pager links={resource.links} />
      <Controls controls={forPeople(resource.controls, page?.session)} />
    </>,
  );
}

/**
 * The controls as a person meets them: sign in and out live in the page header; where both `update` (PUT)
 * and `edit` (PATCH) change the same resource, the one form is `edit`, since both change only the fields
 * sent (generic clients keep both controls).
 */
function forPeople(controls: Control[], session: SessionView | undefined): Control[] {
  const inHeader = new Set(session?.controls.map((c) => c.name));
  return controls.filter(
    (control) =>
      !inHeader.has(control.name) &&
      !(control.name === 'update' && controls.some((c) => c.name === 'edit' && c.href === control.href)),
  );
}

/** Fields `<rel>_id` of these resources whose `<rel>` link carries a title on every one that has it. */
function namedFields(resources: Resource[]): Set<string> {
  const named = new Set<string>();
  const rels = new Set(resources.flatMap((r) => r.links.map((l) => l.rel)));
  for (const rel of rels) {
    if (!resources.some((r) => `${rel}_id` in r.state)) continue;
    const links = resources.flatMap((r) => r.links.filter((l) => l.rel === rel));
    if (links.length > 0 && links.every((l) => typeof l.title === 'string')) named.add(rel);
  }
  return named;
}

/** The rel whose title stands for this field, if the field is `<rel>_id` and that rel is named. */
function namedRel(field: string, named: Set<string>): string | undefined {
  const rel = field.endsWith('_id') ? field.slice(0, -3) : undefined;
  return rel !== undefined && named.has(rel) ? rel : undefined;
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
  const base = escapeHtml(home.replace(/\/$/, ''));
  const main = (
    <body>
      <header>
        <a rel="home" href={home} class="brand">
          catalogue
        </a>
        {page?.session && <SessionBar session={page.session} />}
      </header>
      <main>{body}</main>
    </body>
  );
  // The head is written as text. No favicon to fetch: without the icon link every page view asks for
  // /favicon.ico and gets a 404.
  const head =
    '<head><meta charset="utf-8"/><meta name="viewport" content="width=device-width, initial-scale=1"/>' +
    `<title>${escapeHtml(title)} · catalogue</title><link rel="icon" href="data:,"/>` +
    `<link rel="stylesheet" href="${base}/assets/catalogue.css"/>` +
    `<script src="${base}/assets/catalogue.js" defer=""></script></head>`;
  return `<!DOCTYPE html><html lang="en">${head}${main}</html>`;
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
    'copy-page': 'Copies',
    'hold-page': 'Holds',
    'token-page': 'Tokens',
    'change-page': 'Changes',
    suggestions: `Suggestions for “${String(state.query ?? '')}”`,
    loan: `Loan ${String(state.id ?? '')}`,
    copy: `Copy ${String(state.barcode ?? state.id ?? '')}`,
    hold: `Hold ${String(state.id ?? '')}`,
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

/** A page's facets: each value links to the listing narrowed to it, or, when chosen, to the listing without it. */
const Facets: FC<{ facets: Facet[] }> = ({ facets }) => (
  <nav class="facets" aria-label="Narrow the results">
    {facets.map((facet) => (
      <section data-facet={facet.name}>
        <h2>
          {facet.title}
          {facet.estimated && ' (estimated)'}
        </h2>
        <ul>
          {facet.values.map((value) => (
            <li>
              <a
                rel="facet"
                href={value.href}
                data-chosen={value.chosen ? '' : undefined}
                aria-label={value.chosen ? `Remove ${facet.title}: ${value.label}` : undefined}
              >
                {value.chosen ? `\u2715 ${value.label}` : value.label}
              </a>{' '}
              <span class="count">{value.count}</span>
            </li>
          ))}
        </ul>
      </section>
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

const State: FC<{ state: Record<string, unknown>; links?: Link[]; named?: Set<string> }> = ({
  state,
  links = [],
  named = new Set(),
}) => {
  const entries = Object.entries(state).filter(([name]) => name !== 'description');
  return (
    <>
      {typeof state.description === 'string' && <p class="description">{state.description}</p>}
      {entries.length > 0 && (
        <dl class="state">
          {entries.map(([name, value]) => {
            const rel = namedRel(name, named);
            const link = rel && links.find((l) => l.rel === rel);
            return (
              <>
                <dt>{label(rel ?? name)}</dt>
                <dd data-field={name}>
                  {link ? (
                    <a rel={link.rel} href={link.href}>
                      {link.title}
                    </a>
                  ) : isRecord(value) ? (
                    <State state={value} />
                  ) : (
                    show(value)
                  )}
                </dd>
              </>
            );
          })}
        </dl>
      )}
    </>
  );
};

const Items: FC<{ items: Resource[]; named: Set<string>; sort: ListingView['sort'] | undefined }> = ({
  items,
  named,
  sort,
}) => {
  if (items.length === 0) return <p class="empty">Nothing here.</p>;
  const columns = [...new Set(items.flatMap((item) => Object.keys(item.state)))];
  // The item's link sits on its most telling field: the title or name, else the first.
  const linked = columns.find((name) => name === 'title' || name === 'name') ?? columns[0];
  const linkRels = [...new Set(items.flatMap((item) => item.links.map((l) => l.rel)))].filter(
    (rel) => rel !== 'self' && rel !== 'collection' && !named.has(rel),
  );
  return (
    <div class="table">
      <table>
        <thead>
          <tr>
            {columns.map((name) => {
              const rel = namedRel(name, named);
              // A named column shows names, which the listing cannot sort by: its header stays text.
              const by = rel ? undefined : sort?.[name];
              return (
                <th scope="col" aria-sort={by?.order}>
                  {by ? (
                    <a href={by.href} class="sort" data-order={by.order}>
                      {label(name)}
                    </a>
                  ) : (
                    label(rel ?? name)
                  )}
                </th>
              );
            })}
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
                {columns.map((name) => {
                  const rel = namedRel(name, named);
                  const link = rel && item.links.find((l) => l.rel === rel);
                  return (
                    <td data-field={name}>
                      {link ? (
                        <a rel={link.rel} href={link.href}>
                          {link.title}
                        </a>
                      ) : name === linked && self ? (
                        <a rel="item" href={self.href}>
                          {show(item.state[name])}
                        </a>
                      ) : (
                        show(item.state[name])
                      )}
                    </td>
                  );
                })}
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

/** Members that are each one link (suggestions): a list of those links, labelled by their titles. */
const LinkList: FC<{ items: Resource[] }> = ({ items }) => {
  const links = items.flatMap((item) => item.links.slice(0, 1));
  if (links.length === 0) return <p class="empty">Nothing here.</p>;
  return (
    <ul class="link-list">
      {links.map((link) => (
        <li>
          <a rel={link.rel} href={link.href}>
            {link.title ?? label(link.rel)}
          </a>{' '}
          <span class="rel">{label(link.rel)}</span>
        </li>
      ))}
    </ul>
  );
};

/** The search words of a listing, on top of it: only `query`; the other parameters stay in the full form. */
const SearchBox: FC<{ control: Control; listing: ListingView | undefined }> = ({ control, listing }) => {
  const field = control.fields.find((f) => f.name === 'query');
  if (!field) return null;
  return (
    <search>
      <form class="searchbox" method="get" action={control.href} data-method="GET">
        <label for="searchbox-query">{field.title ?? label(field.name)}</label>
        <input type="search" id="searchbox-query" name="query" value={listing?.query} maxlength={field.maxLength} />
        <button type="submit">Search</button>
      </form>
    </search>
  );
};

/**
 * The header's markup of each frozen session (an anonymous caller's, the same on every page), memoized:
 * kept for its figure in docs/performance.md ("What stays and why").
 */
const drawnSessions = new WeakMap<SessionView, Html>();

const SessionBar: FC<{ session: SessionView }> = ({ session }) => {
  if (!Object.isFrozen(session)) return <SessionForms session={session} />;
  let drawn = drawnSessions.get(session);
  if (!drawn) {
    drawn = <SessionForms session={session} />;
    drawnSessions.set(session, drawn);
  }
  return drawn;
};

/** Who is signed in, and the way in or out, on every page. */
const SessionForms: FC<{ session: SessionView }> = ({ session }) => (
  <div class="session">
    {session.user && (
      <span class="who">
        Signed in as <a href={session.user.href}>{session.user.name}</a>
      </span>
    )}
    {session.controls.map((control) => {
      const id = `header-${control.name}`;
      return (
        <FormOf control={control} id={id}>
          {control.fields.map((field) => (
            <FieldInput field={field} formId={id} />
          ))}
          <button type="submit">{control.title ?? label(control.name)}</button>
          <p class="form-error" role="alert" hidden />
        </FormOf>
      );
    })}
  </div>
);

const Controls: FC<{ controls: Control[] }> = ({ controls }) =>
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
const FormOf: FC<PropsWithChildren<{ control: Control; id: string }>> = ({ control, id, children }) => (
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
const ControlForm: FC<{ control: Control }> = ({ control }) => {
  if (control.method === 'DELETE') return <ConfirmedForm control={control} />;
  const id = `control-${control.name}`;
  const more = control.fields.filter((f) => MORE_OPTIONS.includes(f.name));
  return (
    <FormOf control={control} id={id}>
      <fieldset>
        <legend>{control.title ?? label(control.name)}</legend>
        {control.fields
          .filter((f) => !more.includes(f))
          .map((field) => (
            <FieldInput field={field} formId={id} />
          ))}
        {more.length > 0 && (
          <details class="more">
            <summary>More options</summary>
            {more.map((field) => (
              <FieldInput field={field} formId={id} />
            ))}
          </details>
        )}
        <p class="form-error" role="alert" hidden />
        <button type="submit">{control.title ?? label(control.name)}</button>
      </fieldset>
    </FormOf>
  );
};

/** A search's fields a person rarely needs: exact matches and sparse fields, out of the way until asked for. */
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
        <a class="choices" href={field.options.href} target="_blank" rel="noopener">
          Look up the {(field.title ?? label(field.name)).toLowerCase()}’s number
        </a>
      )}
      <small class="field-error" data-error-for={field.name} role="alert" hidden />
    </p>
  );
};

/** A name of a field, rel or control as a person reads it: `publication_year` → "Publication year". */
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
