/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
/**
 * @module My account as a patron reads it: who they are and what they owe, then a section a group (current
 * loans, holds, recent charges), each a table with a row a member and the member's controls as buttons in
 * the row. It translates the model: the members, their links and controls were decided by the renderers.
 */
import type { Control, Embedded, Link, Resource } from '../../hypermedia/model.js';
import type { PageContext } from '../format.js';
import { document } from './document.js';
import { FieldInput, FormOf } from './forms.js';
// biome-ignore lint/correctness/noUnusedImports: the JSX below compiles to h(…) and Fragment (the pragmas above).
import { type FC, Fragment, h } from './jsx.js';
import { Links, label, linkOf, show, text } from './parts.js';

/** A group's columns: the heading, and the member's field shown (or the link, by rel, whose title is shown). */
type Column = [heading: string, cell: { field: string; named?: true } | { rel: string }];

const COLUMNS: Record<string, Column[]> = {
  loans: [
    ['Title', { rel: 'book' }],
    ['Copy', { rel: 'copy' }],
    ['Due', { field: 'due_at' }],
    ['Overdue', { field: 'overdue' }],
    ['Renewals', { field: 'renewals' }],
  ],
  holds: [
    ['Title', { rel: 'book' }],
    ['Status', { field: 'status' }],
    ['Place in queue', { field: 'position' }],
    ['Pickup branch', { rel: 'pickup_branch' }],
    ['Ready until', { field: 'ready_until' }],
  ],
  charges: [
    ['Charge', { field: 'kind', named: true }],
    ['Amount', { field: 'formatted_amount' }],
    ['For', { rel: 'loan' }],
    ['Reason', { field: 'reason' }],
    ['Recorded', { field: 'created_at' }],
  ],
};

const EMPTY: Record<string, string> = {
  loans: 'You have nothing on loan.',
  holds: 'You have no holds.',
  charges: 'You have no charges.',
};

export function myAccountPage(resource: Resource, page: PageContext | undefined): string {
  const { state } = resource;
  const links = resource.links.filter((l) => l.rel !== 'self' && l.rel !== 'home_branch');
  const home = linkOf(resource.links, 'home_branch');
  return document(
    'My account',
    page,
    <>
      <h1>My account</h1>
      <Links links={links} />
      <dl class="state">
        <dt>Name</dt>
        <dd data-field="name">{text(state.name)}</dd>
        {home && (
          <>
            <dt>Home branch</dt>
            <dd data-field="home_branch_id">
              <a rel="home_branch" href={home.href}>
                {home.title ?? label(home.rel)}
              </a>
            </dd>
          </>
        )}
        <dt>You owe</dt>
        <dd data-field="balance">{text(state.formatted_balance)}</dd>
      </dl>
      {(resource.embedded ?? []).map((group) => (
        <Group group={group} />
      ))}
    </>,
  );
}

const Group: FC<{ group: Embedded }> = ({ group }) => {
  const heading = `${group.rel}-heading`;
  const columns = COLUMNS[group.rel] ?? [];
  const withControls = group.items.some((item) => item.controls.length > 0);
  return (
    <section class={`group group-${group.rel}`} aria-labelledby={heading}>
      <h2 id={heading}>{group.title}</h2>
      {group.items.length === 0 ? (
        <p class="empty">{EMPTY[group.rel] ?? 'Nothing here.'}</p>
      ) : (
        <div class="table">
          <table aria-labelledby={heading}>
            <thead>
              <tr>
                {columns.map(([name]) => (
                  <th scope="col">{name}</th>
                ))}
                {withControls && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {group.items.map((item, at) => {
                // The row's name (its first cell) tells a screen reader which row a button acts on.
                const row = `${group.rel}-${String(item.state.id ?? at)}`;
                return (
                  <tr data-rel={group.rel} data-id={item.state.id}>
                    {columns.map(([, cell], index) => (
                      <td
                        id={index === 0 ? `${row}-name` : undefined}
                        data-field={'field' in cell ? cell.field : cell.rel}
                      >
                        <Cell item={item} cell={cell} />
                      </td>
                    ))}
                    {withControls && (
                      <td class="actions">
                        {item.controls.map((control) => (
                          <RowControl control={control} id={`${row}-${control.name}`} describedBy={`${row}-name`} />
                        ))}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
};

/** A field's value (a name, `overdue_fine`, read as words), or a link by its title. */
const Cell: FC<{ item: Resource; cell: Column[1] }> = ({ item, cell }) => {
  if ('rel' in cell) return <Linked link={linkOf(item.links, cell.rel)} />;
  const value = item.state[cell.field];
  return <>{cell.named && typeof value === 'string' ? label(value) : show(value)}</>;
};

/** A member's link, by its title; a dash when the member has none (a manual charge is for no loan). */
const Linked: FC<{ link: Link | undefined }> = ({ link }) =>
  link ? (
    <a rel={link.rel} href={link.href}>
      {link.title ?? label(link.rel)}
    </a>
  ) : (
    <span>{text(undefined)}</span>
  );

/**
 * A control in a row: a button, and inputs for the fields a person chooses. A field whose value is its one
 * possible value (`cancel`'s status) is sent as it is, unseen.
 */
const RowControl: FC<{ control: Control; id: string; describedBy: string }> = ({ control, id, describedBy }) => (
  <FormOf control={control} id={id}>
    {control.fields.map((field) =>
      field.enum?.length === 1 && field.value === field.enum[0] ? (
        <input type="hidden" name={field.name} value={String(field.value)} />
      ) : (
        <FieldInput field={field} formId={id} />
      ),
    )}
    <button type="submit" aria-describedby={describedBy}>
      {control.title ?? label(control.name)}
    </button>
    <p class="form-error" role="alert" hidden />
  </FormOf>
);
