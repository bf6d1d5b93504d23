/** @module The controls on users and their tokens: adding and changing users, creating and revoking tokens. */
import type { Token } from '../domain/token.js';
import { tokenInputFields } from '../domain/token.js';
import { userInputFields } from '../domain/user.js';
import { paths } from '../hypermedia/uris.js';
import { affordance } from './affordance.js';
import { changeAffordances } from './change.js';
import type { RenderContext } from './context.js';
import { branchOptions, inputFields, patronCategoryOptions } from './fields.js';

/** A user's patron category and home branch are picked from those lists. */
const userChoices = (ctx: RenderContext) => ({
  patron_category_id: patronCategoryOptions(ctx),
  home_branch_id: branchOptions(ctx),
});

export const addUser = affordance({
  name: 'create',
  path: paths.users,
  summary: 'Add a user (the default patron category and branch unless named)',
  errors: [422],
  body: { fields: userInputFields, mode: 'create' },
  title: 'Add a user',
  appears: 'on the users collection, for librarians',
  allows: ({ policy, caller }) => policy.manageUsers(caller),
  href: ({ uris }) => uris.users(),
  fields: (ctx) => inputFields(userInputFields, { choices: userChoices(ctx) }),
});

export const changeUser = changeAffordances({
  noun: 'user',
  path: paths.user,
  fields: userInputFields,
  choices: userChoices,
  errors: [409, 422],
  appears: 'on a user, for librarians',
  allows: ({ policy, caller }) => policy.manageUsers(caller),
  href: ({ uris }, user) => uris.user(user.id),
});

/** One more token for a user, while they hold fewer than the cap. */
export const createToken = affordance({
  name: 'create',
  path: paths.userTokens,
  summary: 'Create a token; the answer carries its secret, once',
  body: { fields: tokenInputFields, mode: 'create', optional: true },
  title: 'Create a token',
  appears: 'on a user\u2019s tokens below the cap, for that user and librarians',
  allows: ({ policy, caller }, { userId, held }: { userId: number; held: number }) =>
    policy.createToken(caller, userId, held),
  href: ({ uris }, { userId }) => uris.userTokens(userId),
});

export const revokeToken = affordance<Pick<Token, 'id' | 'user_id'>>({
  name: 'delete',
  path: paths.userToken,
  summary: 'Revoke a token',
  title: 'Revoke token',
  appears: 'on a token, for its owner and librarians',
  allows: ({ policy, caller }, token) => policy.manageTokens(caller, token.user_id),
  href: ({ uris }, token) => uris.userToken(token.user_id, token.id),
});
