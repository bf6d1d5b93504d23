/** @jsxRuntime classic */
/** @jsx h */
/** @jsxFrag Fragment */
/**
 * @module The circulation desk as a librarian meets it, at a keyboard and a barcode scanner (which types the
 * code and presses Enter): the check-out desk (a card, then barcodes), the check-in desk (barcodes), and a
 * check-in's answer. Each field a scan goes to has the focus; `/assets/desk.js` sends each scan, lists its
 * answer under "This visit" and gives the focus back. The list lives in the page, not on the server.
 * Without the script the forms still post: a check-in answers its page (with the form again), a check-out
 * the loan it made.
 */
import type { Control, Field, Resource } from '../../hypermedia/model.js';
import type { PageContext } from '../format.js';
import { document } from './document.js';
import { FieldInput } from './forms.js';
// biome-ignore lint/correctness/noUnusedImports: the JSX below compiles to h(…) and Fragment (the pragmas above).
import { type FC, Fragment, h } from './jsx.js';
import { isRecord, Links, text } from './parts.js';

/** The desk's pages, by kind; `undefined` for any other resource. */
export function deskPage(resource: Resource, page: PageContext | undefined): string | undefined {
  if (resource.kind === 'desk') return checkOutDesk(resource, page);
  if (resource.kind === 'checkins' || resource.kind === 'check-in') return checkInDesk(resource, page);
  return undefined;
}

const control = (resource: Resource, name: string) => resource.controls.find((c) => c.name === name);
const linksOf = (resource: Resource, rels: string[]) => resource.links.filter((l) => rels.includes(l.rel));

function checkOutDesk(resource: Resource, page: PageContext | undefined): string {
  const patron = isRecord(resource.state.patron) ? resource.state.patron : undefined;
  const find = control(resource, 'find-patron');
  const lend = control(resource, 'check-out');
  return document(
    'Check out',
    page,
    <>
      <h1>Check out</h1>
      <Links links={linksOf(resource, ['checkins'])} />
      {find && (
        <search>
          <form rel="find-patron" method="get" action={find.href} class="desk-card">
            <label for="desk-card">{fieldOf(find, 'card_number')?.title ?? 'Library card'}</label>
            <input
              id="desk-card"
              name="card_number"
              type="text"
              autocomplete="off"
              spellcheck="false"
              maxlength={fieldOf(find, 'card_number')?.maxLength}
              value={patron ? String(patron.card_number) : undefined}
              autofocus={!patron}
              required
              aria-describedby="desk-card-error"
            />
            <button type="submit">Read card</button>
            <small class="field-error" id="desk-card-error" data-error-for="card_number" role="alert" hidden />
          </form>
        </search>
      )}
      {patron && (
        <section class="patron" aria-labelledby="desk-patron">
          <h2 id="desk-patron">
            {linksOf(resource, ['borrower']).map((link) => (
              <a rel="borrower" href={link.href}>
                {link.title}
              </a>
            ))}
          </h2>
          <dl class="state">
            <dt>Loans out</dt>
            <dd data-field="loans_out" data-loans-out>
              {text(patron.loans_out)}
            </dd>
            <dt>Balance</dt>
            <dd data-field="balance">{text(patron.formatted_balance)}</dd>
          </dl>
          <Links links={linksOf(resource, ['loans', 'account'])} name="The patron’s loans and account" />
        </section>
      )}
      {lend && patron && <ScanForm control={lend} />}
      <Results />
    </>,
    { script: 'desk.js' },
  );
}

function checkInDesk(resource: Resource, page: PageContext | undefined): string {
  const back = control(resource, 'check-in');
  const answered = resource.kind === 'check-in' ? resource : undefined;
  return document(
    'Check in',
    page,
    <>
      <h1>Check in</h1>
      <Links links={linksOf(resource, ['desk', 'checkins'])} />
      {back && <ScanForm control={back} />}
      <Results>{answered && <CheckedIn resource={answered} />}</Results>
    </>,
    { script: 'desk.js' },
  );
}

function fieldOf(control: Control, name: string): Field | undefined {
  return control.fields.find((f) => f.name === name);
}

/**
 * A scan's form: the barcode (with the focus), the card read already (hidden), and the desk's branch
 * (filled in: the librarian's own). Not a `data-method` form: the desk's script sends it, not the generic one.
 */
const ScanForm: FC<{ control: Control }> = ({ control }) => {
  const id = `desk-${control.name}`;
  const barcode = fieldOf(control, 'barcode');
  const card = fieldOf(control, 'card_number');
  const others = control.fields.filter((f) => f.name !== 'barcode' && f.name !== 'card_number');
  return (
    <form rel={control.name} method="post" action={control.href} id={id} class="desk-scan" data-desk={control.name}>
      {card?.value !== undefined && <input type="hidden" name="card_number" value={String(card.value)} />}
      <p class="field">
        <label for={`${id}-barcode`}>{barcode?.title ?? 'Barcode'}</label>
        <input
          id={`${id}-barcode`}
          name="barcode"
          type="text"
          autocomplete="off"
          spellcheck="false"
          maxlength={barcode?.maxLength}
          required
          autofocus
        />
        <button type="submit">{control.title}</button>
      </p>
      <details class="more">
        <summary>Desk</summary>
        {others.map((field) => (
          <FieldInput field={field} formId={id} />
        ))}
      </details>
    </form>
  );
};

/** This visit's scans, newest first: filled by the script (and, without it, by a check-in's answer). */
const Results: FC<{ children?: unknown }> = ({ children }) => (
  <section class="desk-results" aria-labelledby="desk-results-heading">
    <h2 id="desk-results-heading">This visit</h2>
    <ol id="desk-results" aria-live="polite" reversed>
      {children}
    </ol>
  </section>
);

/** A check-in's answer as a line of the list: the title, where the copy goes, and the fine. */
const CheckedIn: FC<{ resource: Resource }> = ({ resource }) => {
  const { state } = resource;
  const fine = isRecord(state.fine) ? state.fine : undefined;
  return (
    <li class="desk-result done" data-barcode={String(state.barcode)}>
      <span class="barcode">{text(state.barcode)}</span> <span class="title">{text(state.title)}</span>{' '}
      <span class="placement">{text(state.placement)}</span>{' '}
      <span class="fine">{fine ? `Fine charged: ${text(fine.formatted)}` : 'No fine'}</span>
    </li>
  );
};
