/** @module Renders the root document, where every client starts. */
import { bookListingSpec } from '../domain/listings.js';
import { sessionInputFields } from '../domain/session.js';
import type { Control, Link, Resource } from '../hypermedia/model.js';
import type { RenderContext } from './context.js';
import { inputFields, listingFields } from './fields.js';
import { firstPage } from './first-page.js';

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
    );
  }
  if (caller.kind === 'user') {
    links.push({ rel: 'me', href: uris.user(caller.id), title: caller.name });
    if (policy.listLoans(caller).allowed) {
      const title = policy.seesAllLoans(caller) ? 'Loans' : 'My loans';
      links.push({ rel: 'loans', href: uris.loans(firstPage), title });
    }
    if (policy.manageUsers(caller).allowed) links.push({ rel: 'users', href: uris.users(firstPage), title: 'Users' });
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
    controls: [
      ...sessionControls(ctx),
      ...(mayRead
        ? [
            {
              name: 'search' as const,
              href: uris.books(),
              method: 'GET' as const,
              title: 'Search books',
              fields: listingFields({ fieldNames: Object.keys(bookListingSpec.fields), author: true }),
            },
          ]
        : []),
    ],
  };
}

/** Signing in (anonymous) or out (a browser session): on the root, and in the header of every page. */
export function sessionControls(ctx: RenderContext): Control[] {
  const { uris, caller, policy } = ctx;
  const controls: Control[] = [];
  if (policy.signIn(caller).allowed) {
    controls.push({
      name: 'login',
      href: uris.session(),
      method: 'POST',
      title: 'Sign in',
      contentType: 'application/json',
      fields: inputFields(sessionInputFields),
    });
  }
  if (policy.signOut(caller).allowed) {
    controls.push({ name: 'logout', href: uris.session(), method: 'DELETE', title: 'Sign out', fields: [] });
  }
  return controls;
}
