/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
/**
 * @module A page of lending rules as a librarian reads the matrix: one row a rule, its scope by name ("any"
 * where it names none), every value written out ("— next rule" where unset, "no limit" for none), and the
 * forms of the page's controls. It translates the model: the rules, their links and controls were decided
 * by the renderers.
 */
import type { Resource } from '../../hypermedia/model.js';
import type { PageContext } from '../format.js';
import { document } from './document.js';
import { Controls, forPeople } from './forms.js';
// biome-ignore lint/correctness/noUnusedImports: the JSX below compiles to h(…) and Fragment (the pragmas above).
import { type FC, Fragment, h } from './jsx.js';
import { Links, label, PAGING, Pager, text, titleOf } from './parts.js';

/** A rule's scope: each field, and the rel of the link that names its entry. */
const SCOPE = [
  ['patron_category_id', 'patron_category'],
  ['item_type_id', 'item_type'],
  ['branch_id', 'branch'],
] as const;

/** Fields that are not values of the rule: shown elsewhere on the page, or not at all. */
const NOT_VALUES = new Set(['id', 'currency', 'from_settings', ...SCOPE.map(([field]) => field)]);

export function loanRulesPage(resource: Resource, page: PageContext | undefined): string {
  const title = titleOf(resource);
  const items = resource.items ?? [];
  const values = [...new Set(items.flatMap((item) => Object.keys(item.state)))].filter((name) => !NOT_VALUES.has(name));
  const currency = items.map((item) => item.state.currency).find((c) => typeof c === 'string');
  const links = resource.links.filter((l) => !PAGING.includes(l.rel) && l.rel !== 'self' && !l.templated);
  return document(
    title,
    page,
    <>
      <h1>{title}</h1>
      <Links links={links} />
      <p class="description">
        The most specific rule that sets a value gives it; a value left unset comes from the next rule.
        {typeof currency === 'string' && ` Money is in minor units of ${currency}.`}
      </p>
      {items.length === 0 ? (
        <p class="empty">Nothing here.</p>
      ) : (
        <div class="table">
          <table class="loan-rules">
            <thead>
              <tr>
                <th scope="col">Rule</th>
                {SCOPE.map(([, rel]) => (
                  <th scope="col">{label(rel)}</th>
                ))}
                {values.map((name) => (
                  <th scope="col">{label(name)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {items.map((rule) => (
                <RuleRow rule={rule} values={values} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager links={resource.links} />
      <Controls controls={forPeople(resource.controls, page?.session)} />
    </>,
  );
}

const RuleRow: FC<{ rule: Resource; values: string[] }> = ({ rule, values }) => {
  const self = rule.links.find((l) => l.rel === 'self');
  return (
    <tr>
      <th scope="row" data-field="id">
        {self ? (
          <a rel="item" href={self.href}>
            Rule {String(rule.state.id)}
          </a>
        ) : (
          `Rule ${String(rule.state.id)}`
        )}
      </th>
      {SCOPE.map(([field, rel]) => {
        const link = rule.links.find((l) => l.rel === rel);
        return (
          <td data-field={field}>
            {link ? (
              <a rel={rel} href={link.href}>
                {link.title ?? text(rule.state[field])}
              </a>
            ) : rule.state[field] === null ? (
              'any'
            ) : (
              text(rule.state[field])
            )}
          </td>
        );
      })}
      {values.map((name) => (
        <td data-field={name}>{valueText(rule.state[name])}</td>
      ))}
    </tr>
  );
};

/** A value as the table reads: unset falls to the next rule; "none" is no limit. */
function valueText(value: unknown): string {
  if (value === null) return '\u2014 next rule';
  if (value === 'none') return 'no limit';
  return text(value);
}
