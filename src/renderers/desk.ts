/**
 * @module Renders the circulation desk: the check-out desk (with the patron whose card was read), the
 * check-in desk, and what each scan answers: the loan made, or the loan returned and where its copy goes.
 */
import { offered } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import { checkIn, checkOut, findPatron } from '../affordances/desk.js';
import { type CheckedIn, checkInText, type Patron, placementOfCheckIn, type ScannedCopy } from '../domain/desk.js';
import type { LoanRecord } from '../domain/loan.js';
import { formatMoney } from '../domain/money.js';
import type { SignedIn } from '../domain/policy.js';
import type { Link, Resource } from '../hypermedia/model.js';
import { firstPage } from '../hypermedia/uris.js';
import { renderLoan } from './loan.js';

/** The check-out desk: read a card; once read, the patron, and lending to them by barcode. */
export function renderDesk(ctx: RenderContext, patron?: Patron): Resource {
  const { uris } = ctx;
  const links: Link[] = [
    { rel: 'self', href: uris.desk(patron?.card_number) },
    { rel: 'checkins', href: uris.deskCheckins(), title: 'Check in' },
  ];
  if (patron) {
    links.push(
      { rel: 'borrower', href: uris.user(patron.id), title: patron.name },
      { rel: 'loans', href: uris.userLoans(patron.id, firstPage), title: `Loans of ${patron.name}` },
      { rel: 'account', href: uris.userAccount(patron.id), title: `Account of ${patron.name}` },
    );
  }
  return {
    kind: 'desk',
    state: {
      branch_id: (ctx.caller as SignedIn).homeBranchId,
      ...(patron && {
        patron: {
          id: patron.id,
          name: patron.name,
          card_number: patron.card_number,
          loans_out: patron.loans_out,
          balance: patron.balance,
          formatted_balance: formatMoney(patron.balance),
        },
      }),
    },
    links,
    controls: [...offered(ctx, undefined, [findPatron]), ...offered(ctx, patron, [checkOut])],
  };
}

/** The check-in desk: scan a barcode, learn where the copy goes. */
export function renderCheckinDesk(ctx: RenderContext): Resource {
  const { uris } = ctx;
  return {
    kind: 'checkins',
    state: { branch_id: (ctx.caller as SignedIn).homeBranchId },
    links: [
      { rel: 'self', href: uris.deskCheckins() },
      { rel: 'desk', href: uris.desk(), title: 'Check out' },
    ],
    controls: offered(ctx, undefined, [checkIn]),
  };
}

/** A loan made at the desk: the loan, with the title and barcode scanned and the patron's name. */
export function renderCheckedOut(loan: LoanRecord, copy: ScannedCopy, patron: Patron, ctx: RenderContext): Resource {
  const resource = renderLoan(loan, ctx);
  return {
    ...resource,
    state: { ...resource.state, title: copy.title, barcode: copy.barcode, borrower_name: patron.name },
    links: resource.links.map((link) =>
      link.rel === 'book'
        ? { ...link, title: copy.title }
        : link.rel === 'borrower'
          ? { ...link, title: patron.name }
          : link,
    ),
  };
}

/**
 * A check-in's answer: what it did (the loan returned, or the copy in transit received or sent on), where
 * the copy goes now (as settling placed it) and the fine charged; with `check-in` again, for the next scan.
 */
export function renderCheckedIn(done: CheckedIn, copy: ScannedCopy, ctx: RenderContext): Resource {
  const { uris } = ctx;
  const returned = done.action === 'returned' ? done.returned : undefined;
  const placement = placementOfCheckIn(done);
  const fine = returned?.fine ?? null;
  const links: Link[] = [];
  if (returned) links.push({ rel: 'loan', href: uris.loan(returned.id), title: 'The loan returned' });
  links.push(
    { rel: 'book', href: uris.book(copy.book_id), title: copy.title },
    { rel: 'copy', href: uris.copy(copy.id), title: copy.barcode },
  );
  if (returned) links.push({ rel: 'borrower', href: uris.user(returned.borrower_id) });
  links.push({
    rel: placement.goes_to === 'in_transit' ? 'destination' : 'location',
    href: uris.branch(placement.branch_id),
    title: placement.branch_name,
  });
  if (placement.hold_id !== null) links.push({ rel: 'hold', href: uris.hold(placement.hold_id) });
  if (returned && fine) {
    links.push({ rel: 'account', href: uris.userAccount(returned.borrower_id), title: 'Account charged' });
  }
  links.push({ rel: 'checkins', href: uris.deskCheckins(), title: 'Check in' });
  return {
    kind: 'check-in',
    state: {
      action: done.action,
      loan_id: returned?.id ?? null,
      book_id: copy.book_id,
      title: copy.title,
      copy_id: copy.id,
      barcode: copy.barcode,
      borrower_id: returned?.borrower_id ?? null,
      due_at: returned?.due_at ?? null,
      returned_at: returned?.returned_at ?? null,
      goes_to: placement.goes_to,
      goes_to_branch_id: placement.branch_id,
      goes_to_branch: placement.branch_name,
      hold_id: placement.hold_id,
      for_patron: placement.patron_name,
      placement: checkInText(done.action, placement),
      fine: fine ? { ...fine, formatted: formatMoney(fine) } : null,
    },
    links,
    controls: offered(ctx, undefined, [checkIn]),
  };
}
