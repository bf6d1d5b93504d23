/** @module Users and their tokens. Librarians manage users; anyone signed in manages their own tokens. */
import type { Context, Hono } from 'hono';
import type { Operation } from '../../affordances/operation.js';
import { addUser, changeUser, createToken, revokeToken } from '../../affordances/users.js';
import { countTokens, deleteToken, findToken, insertToken, listTokensPage } from '../../db/queries/tokens.js';
import { findUser, insertUser, listUsersPage, streamUsers, updateUser } from '../../db/queries/users.js';
import { NotFound } from '../../domain/errors.js';
import { MAX_TOKENS_PER_USER } from '../../domain/limits.js';
import { parseListing } from '../../domain/listing.js';
import { loanListingSpec, tokenListingSpec, userListingSpec } from '../../domain/listings.js';
import { authorize } from '../../domain/policy.js';
import { hashTokenSecret, newTokenSecret } from '../../domain/token.js';
import type { StoredUser, UserInput } from '../../domain/user.js';
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
import { route } from '../route.js';
import { type CreatableResource, changeHandler, createHandler, notFound } from '../stored-resource.js';
import { sendLoans } from './loans.js';

const userNotFound = (id: number) => notFound('user', id);

/** The reads of each route; its writes are the affordances declared in `affordances/users.ts`. */
const reads = {
  users: { summary: 'List users (librarians only)', listing: userListingSpec, errors: [403] },
  user: { summary: 'A user' },
  userLoans: { summary: 'List the loans of a user', listing: loanListingSpec },
  tokens: { summary: 'The tokens of a user, a page of them (never their secrets)', listing: tokenListingSpec },
  token: { summary: 'A token (never its secret)' },
} satisfies Record<string, Operation>;

export function userRoutes(app: Hono<AppEnv>): void {
  route(
    app,
    paths.users,
    { GET: reads.users, POST: addUser },
    {
      GET: listHandler({
        spec: userListingSpec,
        mayList: (ctx) => ctx.policy.manageUsers(ctx.caller),
        collection: usersCollection,
        page: listUsersPage,
        stream: streamUsers,
        renderItem: renderUser,
      }),
      POST: createHandler(storedUser, addUser),
    },
  );

  route(
    app,
    paths.user,
    { GET: reads.user, PUT: changeUser.update, PATCH: changeUser.edit },
    {
      async GET(c) {
        const user = await visibleUser(c);
        return send(c, renderUser(user, c.get('ctx')));
      },
      PUT: changeHandler(storedUser, changeUser.update),
      PATCH: changeHandler(storedUser, changeUser.edit),
    },
  );

  route(
    app,
    paths.userLoans,
    { GET: reads.userLoans },
    {
      async GET(c) {
        const user = await visibleUser(c);
        return sendLoans(c, userLoansCollection(c.get('ctx'), user), user.id);
      },
    },
  );

  route(
    app,
    paths.userTokens,
    { GET: reads.tokens, POST: createToken },
    {
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
        createToken.authorize(ctx, { userId: user.id, held: await countTokens(db, { userId: user.id }) });
        const input = createToken.validate(await readOptionalJson(c));
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
    },
  );

  route(
    app,
    paths.userToken,
    { GET: reads.token, DELETE: revokeToken },
    {
      async GET(c) {
        const user = await tokenOwner(c);
        const id = idParam(c, 'token', 'token');
        const token = await findToken(c.get('database').db, { userId: user.id, id });
        if (!token) throw new NotFound(`token ${id} not found`);
        return send(c, renderToken(token, c.get('ctx')));
      },
      async DELETE(c) {
        const userId = idParam(c, 'id', 'user');
        const id = idParam(c, 'token', 'token');
        revokeToken.authorize(c.get('ctx'), { id, user_id: userId });
        if (!(await deleteToken(c.get('database').db, { userId, id }))) {
          throw new NotFound(`token ${id} not found`);
        }
        return sendDeleted(c, c.get('ctx').uris.userTokens(userId), tokenInvalidates(c.get('ctx').uris, userId));
      },
    },
  );
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
  update: updateUser,
  insert: insertUser,
  uri: (ctx, user) => ctx.uris.user(user.id),
  render: (user, ctx) => renderUser(user, ctx),
  invalidates: (ctx) => userInvalidates(ctx.uris),
} satisfies CreatableResource<StoredUser, UserInput>;
