/** @module The controls of a browser session: signing in and out. */
import { sessionInputFields } from '../domain/session.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';

export const signIn = affordance({
  name: 'login',
  path: paths.session,
  summary:
    'Sign a browser in: exchange a library card number and PIN, or a token, for a session cookie; answers the root',
  body: { fields: sessionInputFields, mode: 'create' },
  status: 200,
  errors: [409, 429],
  open: true,
  title: 'Sign in',
  appears: 'on the root and in the header of every page while not signed in',
  allows: ({ policy, caller }) => policy.signIn(caller),
  href: ({ uris }) => uris.session(),
});

export const signOut = affordance({
  name: 'logout',
  path: paths.session,
  summary: 'End a browser session; answers the root',
  status: 200,
  errors: [409],
  open: true,
  title: 'Sign out',
  appears: 'on the root and in the header of every page while signed in through a browser session (not a bearer token)',
  allows: ({ policy, caller }) => policy.signOut(caller),
  href: ({ uris }) => uris.session(),
});
