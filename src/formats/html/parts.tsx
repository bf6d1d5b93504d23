/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
/** @module How values, names and links read on every page: labels, instants, the related links and the pager. */
import type { Link, Resource } from '../../hypermedia/model.js';
// biome-ignore lint/correctness/noUnusedImports: the JSX below compiles to h(…) and Fragment (the pragmas above).
import { type FC, Fragment, h } from './jsx.js';

export const PAGING = ['first', 'prev', 'next', 'last'];
const PAGING_LABELS: Record<string, string> = { first: '« First', prev: '‹ Previous', next: 'Next ›', last: 'Last »' };

/** A link of these by rel; `rel` is any name, so a page may look for a rel the catalogue does not offer yet. */
export function linkOf(links: readonly Link[], rel: string): Link | undefined {
  return links.find((link) => link.rel === rel);
}

export function titleOf(resource: Resource): string {
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
    'branch-page': 'Branches',
    'closure-page': 'Closed days',
    closure: `Closed ${String(state.date ?? '')}`,
    'patron-category-page': 'Patron categories',
    'item-type-page': 'Item types',
    'loan-rule-page': 'Lending rules',
    'loan-rule': `Lending rule ${String(state.id ?? '')}`,
    account: 'Account',
    payments: 'Payments',
    notices: 'Notices',
    notice: `Notice ${String(state.id ?? '')}`,
    'account-entry': `Account entry ${String(state.id ?? '')}`,
    suggestions: `Suggestions for “${String(state.query ?? '')}”`,
    loan: `Loan ${String(state.id ?? '')}`,
    copy: `Copy ${String(state.barcode ?? state.id ?? '')}`,
    hold: `Hold ${String(state.id ?? '')}`,
    token: `Token ${String(state.id ?? '')}`,
    'import-report': 'Import report',
    'import-job': `Import ${String(state.id ?? '')}`,
    explanation: 'Why these lending terms',
  };
  return labels[resource.kind] ?? resource.kind;
}

/** The links as a navigation landmark, named `name` (a second list on one page needs a name of its own). */
export const Links: FC<{ links: Link[]; name?: string }> = ({ links, name = 'Related' }) =>
  links.length === 0 ? null : (
    <nav class="links" aria-label={name}>
      {links.map((link) => (
        <a rel={link.rel} href={link.href}>
          {link.title ?? label(link.rel)}
        </a>
      ))}
    </nav>
  );

export const Pager: FC<{ links: Link[] }> = ({ links }) => {
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

/** A name of a field, rel or control as a person reads it: `publication_year` → "Publication year". */
export function label(name: string): string {
  // An initialism is read as one: "ISBN", not "Isbn".
  if (name === 'isbn') return 'ISBN';
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * An instant (ISO 8601 with a time) is a `<time>` that may wrap between its date and its time of day but
 * nowhere else (not at the date's hyphens); its text is the value unchanged. Anything else is text.
 */
export function show(value: unknown): unknown {
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

export function text(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  // A list (a book's subjects): its values in order, or a dash when it has none.
  if (Array.isArray(value)) return value.length === 0 ? '—' : value.map(text).join('; ');
  return String(value);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
