/**
 * @module Renders My account: the signed-in caller, their current loans (`renew` where the policy allows),
 * their open holds (`cancel`, and `change_pickup` while waiting), what they owe with their recent charges,
 * and links to their loan history and whole account. Each member is its own renderer's item, named for
 * people (a loan by its book's title) and given the controls this page offers on it.
 */
import { offered } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import { cancelHold, changePickup } from '../affordances/holds.js';
import { renewLoan } from '../affordances/loans.js';
import { formatMoney } from '../domain/money.js';
import type { CurrentLoan, MyAccount, OpenHold, RecentCharge } from '../domain/my-account.js';
import type { Link, Resource } from '../hypermedia/model.js';
import { firstPage } from '../hypermedia/uris.js';
import type { Rel } from '../hypermedia/vocabulary.js';
import { renderAccountEntry } from './account.js';
import { renderHold } from './hold.js';
import { renderLoan } from './loan.js';

export function renderMyAccount(account: MyAccount, ctx: RenderContext): Resource {
  const { uris, policy, caller } = ctx;
  const { holder } = account;
  const links: Link[] = [
    { rel: 'self', href: uris.me() },
    { rel: 'me', href: uris.user(holder.id), title: holder.name },
  ];
  if (policy.seeBranches(caller).allowed) {
    links.push({ rel: 'home_branch', href: uris.branch(holder.home_branch_id), title: holder.home_branch_name });
  }
  links.push(
    {
      rel: 'loan_history',
      href: uris.userLoans(holder.id, { filter: ['status:returned'], sort: '-id', ...firstPage }),
      title: 'Loan history',
    },
    { rel: 'account', href: uris.userAccount(holder.id), title: 'The whole account: charges, payments, waivers' },
  );
  return {
    kind: 'my-account',
    state: {
      id: holder.id,
      name: holder.name,
      role: holder.role,
      home_branch_id: holder.home_branch_id,
      balance: holder.balance,
      formatted_balance: formatMoney(holder.balance),
    },
    links,
    controls: [],
    embedded: [
      { rel: 'loans', title: 'Current loans', items: account.loans.map((loan) => currentLoan(loan, ctx)) },
      { rel: 'holds', title: 'Holds', items: account.holds.map((hold) => openHold(hold, ctx)) },
      { rel: 'charges', title: 'Recent charges', items: account.charges.entries.map((c) => charge(c, ctx)) },
    ],
  };
}

/** A loan as its item, titled by its book and copy, whether it is overdue, and `renew` if allowed now. */
function currentLoan(loan: CurrentLoan, ctx: RenderContext): Resource {
  const item = renderLoan(loan, ctx, { asItem: true });
  const status = item.state.status;
  return {
    ...item,
    // A lost loan is past due too (declared lost some days after its due date).
    state: {
      ...item.state,
      title: loan.title,
      barcode: loan.barcode,
      overdue: status === 'overdue' || status === 'lost',
    },
    links: titled(item.links, { book: loan.title, copy: loan.barcode ?? `Copy ${loan.copy_id}` }),
    controls: offered(ctx, loan, [renewLoan]),
  };
}

/** A hold as its item, titled by its book and pickup branch, with `cancel` and `change_pickup` if allowed. */
function openHold(hold: OpenHold, ctx: RenderContext): Resource {
  const item = renderHold(hold, ctx, { asItem: true });
  return {
    ...item,
    state: { ...item.state, title: hold.title },
    links: titled(item.links, { book: hold.title, pickup_branch: hold.pickup_branch_name }),
    controls: offered(ctx, hold, [cancelHold, changePickup]),
  };
}

/** A charge as the account lists it; the loan it is for is named by its book's title. */
function charge(entry: RecentCharge, ctx: RenderContext): Resource {
  const item = renderAccountEntry(entry, ctx, { asItem: true });
  return entry.title === null ? item : { ...item, links: titled(item.links, { loan: entry.title }) };
}

/** The links of these rels titled as people know them (a book by its title, a branch by its name). */
function titled(links: Link[], titles: Partial<Record<Rel, string>>): Link[] {
  return links.map((link) => {
    const title = titles[link.rel];
    return title === undefined ? link : { ...link, title };
  });
}
