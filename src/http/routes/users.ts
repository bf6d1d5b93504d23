/** @module Users and their tokens. Librarians manage users; anyone signed in manages their own tokens. */
import type { Context, Hono } from 'hono';
import { countTokens, deleteToken, findToken, insertToken, listTokensPage } from '../../db/queries/tokens.js';
import { findUser, insertUser, listUsersPage, streamUsers, updateUser } from '../../db/queries/users.js';
import { NotFound } from '../../domain/errors.js';
import { validateInput } from '../../domain/input.js';
import { MAX_TOKENS_PER_USER } from '../../domain/limits.js';
import { parseListing } from '../../domain/listing.js';
import { loanListingSpec, tokenListingSpec, userListingSpec } from '../../domain/listings.js';
import { authorize } from '../../domain/policy.js';
import { hashTokenSecret, newTokenSecret, type TokenInput, tokenInputFields } from '../../domain/token.js';
import { type StoredUser, type UserInput, userInputFields } from '../../domain/user.js';
import { paths } from '../../hypermedia/uris.js';
import { renderPage } from '../../renderers/collection.js';
import { userLoansCollection, usersCollection } from '../../renderers/collections.js';
import { tokenInvalidates, userInvalidates } from '../../renderers/invalidations.js';
import { renderToken, renderUser, tokensCollection } from '../../renderers/user.js';
import { readOptionalJson } from '../body.js';
import type { AppEnv } from '../env.js';
import { listHandler } from '../listing.js';
import { idParam, queryParams } from '../params.js';
import { send, sendDeleted } from '../respond.js';
import { type Operations, route } from '../route.js';
import { type CreatableResource, changeHandler, createHandler, notFound } from '../stored-resource.js';
import { sendLoans } from './loans.js';

const userNotFound = (id: number) => notFound('user', id);

const userChange = { fields: userInputFields, mode: 'change' } as const;

/** What each route takes and answers: the profile and the OpenAPI document are generated from it. */
const operations = {
  /** `/users` */
  users: {
    GET: { summary: 'List users (librarians only)', listing: userListingSpec, errors: [403] },
    POST: { summary: 'Add a user', control: 'create', body: { fields: userInputFields, mode: 'create' } },
  },
  /** `/users/{id}` */
  user: {
    GET: { summary: 'A user' },
    PUT: {
      summary: 'Change the fields of a user that are sent',
      control: 'update',
      body: userChange,
      conditional: true,
    },
    PATCH: {
      summary: 'Change the fields of a user that are sent',
      control: 'edit',
      body: userChange,
      conditional: true,
    },
  },
  /** `/users/{id}/loans` */
  userLoans: { GET: { summary: 'List the loans of a user', listing: loanListingSpec } },
  /** `/users/{id}/tokens` */
  tokens: {
    GET: { summary: 'The tokens of a user, a page of them (never their secrets)', listing: tokenListingSpec },
    POST: {
      summary: 'Create a token; the answer carries its secret, once',
      control: 'create',
      body: { fields: tokenInputFields, mode: 'create', optional: true },
    },
  },
  /** `/users/{id}/tokens/{token}` */
  token: {
    GET: { summary: 'A token (never its secret)' },
    DELETE: { summary: 'Revoke a token', control: 'delete' },
  },
} satisfies Record<string, Operations>;

export function userRoutes(app: Hono<AppEnv>): void {
  route(app, paths.users, operations.users, {
    GET: listHandler({
      spec: userListingSpec,
      mayList: (ctx) => ctx.policy.manageUsers(ctx.caller),
      collection: usersCollection,
      page: listUsersPage,
      stream: streamUsers,
      renderItem: renderUser,
    }),
    POST: createHandler(storedUser),
  });

  route(app, paths.user, operations.user, {
    async GET(c) {
      const user = await visibleUser(c);
      return send(c, renderUser(user, c.get('ctx')));
    },
    PUT: changeUser,
    PATCH: changeUser,
  });

  route(app, paths.userLoans, operations.userLoans, {
    async GET(c) {
      const user = await visibleUser(c);
      return sendLoans(c, userLoansCollection(c.get('ctx'), user), user.id);
    },
  });

  route(app, paths.userTokens, operations.tokens, {
    /** Always a page: by default one of MAX_TOKENS_PER_USER, which is every token a user can hold. */
    async GET(c) {
      const user = await tokenOwner(c);
      const ctx = c.get('ctx');
      const { db, listingReads } = c.get('database');
      const listing = parseListing(tokenListingSpec, queryParams(c));
      const paged = {
        ...listing,
        paging: listing.paging ?? { page: 1, perPage: MAX_TOKENS_PER_USER },
        countLimit: c.get('listingCountLimit'),
      };
      const [{ rows, ...facts }, held] = await listingReads.run(() =>
        Promise.all([listTokensPage(db, paged, { userId: user.id }), countTokens(db, { userId: user.id })]),
      );
      const items = rows.map((token) => renderToken(token, ctx, { asItem: true, fields: listing.fields }));
      return send(c, renderPage(tokensCollection(user.id, held, ctx), paged, items, facts));
    },
    /** The secret is in this answer and nowhere else, ever: only its hash is stored. */
    async POST(c) {
      const user = await tokenOwner(c);
      const ctx = c.get('ctx');
      const { db } = c.get('database');
      authorize(ctx.policy.createToken(ctx.caller, user.id, await countTokens(db, { userId: user.id })));
      const input = validateInput<TokenInput>(tokenInputFields, await readOptionalJson(c), 'create');
      const secret = newTokenSecret();
      const token = await insertToken(db, {
        userId: user.id,
        name: input.name ?? 'token',
        hash: hashTokenSecret(secret),
      });
      // No Content-Location: this answer carries the secret, which the token's own document never does.
      return send(c, renderToken(token, ctx, { secret }), {
        status: 201,
        headers: { Location: ctx.uris.userToken(user.id, token.id) },
        showOnce: true,
        invalidates: tokenInvalidates(ctx.uris, user.id),
      });
    },
  });

  route(app, paths.userToken, operations.token, {
    async GET(c) {
      const user = await tokenOwner(c);
      const id = idParam(c, 'token', 'token');
      const token = await findToken(c.get('database').db, { userId: user.id, id });
      if (!token) throw new NotFound(`token ${id} not found`);
      return send(c, renderToken(token, c.get('ctx')));
    },
    async DELETE(c) {
      const user = await tokenOwner(c);
      const id = idParam(c, 'token', 'token');
      if (!(await deleteToken(c.get('database').db, { userId: user.id, id }))) {
        throw new NotFound(`token ${id} not found`);
      }
      const { uris } = c.get('ctx');
      return sendDeleted(c, uris.userTokens(user.id), tokenInvalidates(uris, user.id));
    },
  });
}

/** The user in the path, if the caller may see them (themselves, or anyone for a librarian). */
async function visibleUser(c: Context<AppEnv>): Promise<StoredUser> {
  const id = idParam(c, 'id', 'user');
  const { caller, policy } = c.get('ctx');
  authorize(policy.seeUser(caller, id));
  const user = await findUser(c.get('database').db, { id });
  if (!user) throw userNotFound(id);
  return user;
}

/** The user in the path, if the caller may manage their tokens. */
async function tokenOwner(c: Context<AppEnv>): Promise<StoredUser> {
  const id = idParam(c, 'id', 'user');
  const { caller, policy } = c.get('ctx');
  authorize(policy.manageTokens(caller, id));
  const user = await findUser(c.get('database').db, { id });
  if (!user) throw userNotFound(id);
  return user;
}

/** The user as a stored resource: librarians change names and roles (users are never deleted). */
const storedUser = {
  kind: 'user',
  find: (db, id) => findUser(db, { id }),
  mayChange: (ctx) => ctx.policy.manageUsers(ctx.caller),
  fields: userInputFields,
  update: updateUser,
  insert: insertUser,
  uri: (ctx, user) => ctx.uris.user(user.id),
  render: (user, ctx) => renderUser(user, ctx),
  invalidates: (ctx) => userInvalidates(ctx.uris),
} satisfies CreatableResource<StoredUser, UserInput>;
const changeUser = changeHandler(storedUser);
