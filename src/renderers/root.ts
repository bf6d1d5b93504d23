/** @module Renders the root document, where every client starts. */
import { offered } from '../affordances/affordance.js';
import { searchBooks } from '../affordances/books.js';
import type { RenderContext } from '../affordances/context.js';
import { signIn, signOut } from '../affordances/session.js';
import type { Control, Link, Resource } from '../hypermedia/model.js';
import { firstPage } from '../hypermedia/uris.js';

export function renderRoot(ctx: RenderContext): Resource {
  const { uris, caller, policy } = ctx;
  // In a closed catalogue an anonymous caller is offered what signing in needs, and nothing it may not read.
  const mayRead = policy.read(caller).allowed;
  const links: Link[] = [{ rel: 'self', href: uris.root() }];
  if (mayRead) {
    links.push(
      { rel: 'books', href: uris.books(firstPage), title: 'Books' },
      { rel: 'authors', href: uris.authors(firstPage), title: 'Authors' },
      { rel: 'search', href: uris.booksSearchTemplate(), templated: true, title: 'Search books' },
      { rel: 'suggestions', href: uris.suggestions(), templated: true, title: 'Suggestions as you type' },
      { rel: 'changes', href: uris.changes(), title: 'Changes' },
      { rel: 'oai-pmh', href: uris.oaiPmh(), title: 'OAI-PMH for harvesters' },
      { rel: 'sru', href: uris.sru(), title: 'SRU for union catalogues' },
    );
  }
  if (caller.kind === 'user') {
    links.push({ rel: 'me', href: uris.user(caller.id), title: caller.name });
    links.push({ rel: 'my_account', href: uris.me(), title: 'My account' });
    if (policy.listLoans(caller).allowed) {
      const title = policy.seesAllLoans(caller) ? 'Loans' : 'My loans';
      links.push({ rel: 'loans', href: uris.loans(firstPage), title });
    }
    if (policy.seesAllLoans(caller)) {
      links.push({
        rel: 'overdue',
        href: uris.loans({ filter: ['status:overdue'], ...firstPage }),
        title: 'Overdue loans',
      });
    }
    if (policy.useDesk(caller).allowed) links.push({ rel: 'desk', href: uris.desk(), title: 'Circulation desk' });
    if (policy.manageUsers(caller).allowed) links.push({ rel: 'users', href: uris.users(firstPage), title: 'Users' });
    if (policy.seeBranches(caller).allowed) {
      links.push({ rel: 'branches', href: uris.branches(firstPage), title: 'Branches' });
    }
    if (policy.manageLending(caller).allowed) {
      links.push(
        { rel: 'patron_categories', href: uris.patronCategories(firstPage), title: 'Patron categories' },
        { rel: 'item_types', href: uris.itemTypes(firstPage), title: 'Item types' },
        { rel: 'loan_rules', href: uris.loanRules(firstPage), title: 'Lending rules' },
      );
    }
  }
  if (mayRead) {
    links.push(
      { rel: 'profile', href: uris.profile(), title: 'What the links and controls mean' },
      { rel: 'service-desc', href: uris.openapi(), title: 'OpenAPI description' },
      { rel: 'mcp', href: uris.mcp(), title: 'MCP endpoint for agents' },
    );
  }
  return {
    kind: 'root',
    state: {
      name: 'catalogue',
      description: 'A library catalogue of books and authors. Follow the links; submit the controls.',
    },
    links,
    controls: [...sessionControls(ctx), ...offered(ctx, undefined, [searchBooks])],
  };
}

/**
 * One of the root's links, by rel, as this caller gets it: pages drawn for people offer some of them where
 * a person needs them (the search box of a page of books suggests through the root's `suggestions`).
 */
export function rootLink(ctx: RenderContext, rel: string): Link | undefined {
  return renderRoot(ctx).links.find((link) => link.rel === rel);
}

/** Signing in (anonymous) or out (a browser session): on the root, and in the header of every page. */
export function sessionControls(ctx: RenderContext): Control[] {
  return offered(ctx, undefined, [signIn, signOut]);
}
