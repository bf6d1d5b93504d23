/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
/**
 * @module The browsable HTML view of any resource: state as readable fields, links as `<a rel>`, member
 * items as a table, and every control as a `<form rel>` with inputs typed from its fields. Generic: it
 * knows the model, not books or loans. Every value goes through JSX, which escapes it.
 */
import type { Control, Link, Resource, ResourceStream } from '../../hypermedia/model.js';
import type { ErrorContent, ListingView, PageContext } from '../format.js';
import { linkedData } from '../json-ld.js';
import { bookSearchPage } from './book-search.js';
import { deskPage } from './desk.js';
import { document } from './document.js';
import { Controls, forPeople } from './forms.js';
// biome-ignore lint/correctness/noUnusedImports: the JSX below compiles to h(…) and Fragment (the pragmas above).
import { type FC, Fragment, h } from './jsx.js';
import { loanRulesPage } from './loan-rules.js';
import { myAccountPage } from './my-account.js';
import { isRecord, Links, label, PAGING, Pager, show, titleOf } from './parts.js';

/** A whole page for a resource. */
export function resourcePage(resource: Resource, page: PageContext | undefined): string {
  // A page of books is where patrons search: it has a layout of its own.
  if (resource.kind === 'book-page') return bookSearchPage(resource, page);
  // The rules matrix reads as a table of its own: scope by name, unset values said to fall through.
  if (resource.kind === 'loan-rule-page') return loanRulesPage(resource, page);
  // The circulation desk is worked from a keyboard and a scanner: pages of its own.
  const desk = deskPage(resource, page);
  if (desk !== undefined) return desk;
  // My account is sections of a patron's loans, holds and charges, each a table with its buttons.
  if (resource.kind === 'my-account') return myAccountPage(resource, page);
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
    { linkedData: linkedData(resource) },
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
