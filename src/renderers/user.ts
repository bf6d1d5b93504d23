import { offered } from '../affordances/affordance.js';
import type { RenderContext } from '../affordances/context.js';
import { removePin, setPin, unlockPin } from '../affordances/pins.js';
import { changeUser, createToken, revokeToken } from '../affordances/users.js';
import { NO_EMAIL_NOTICES } from '../domain/notice.js';
import type { Token } from '../domain/token.js';
import type { PatronContact, PinRecord, User } from '../domain/user.js';
import type { Resource } from '../hypermedia/model.js';
import { firstPage } from '../hypermedia/uris.js';
import type { Collection } from './collection.js';
import { pick } from './pick.js';

export interface UserRenderOptions {
  fields?: string[] | undefined;
  asItem?: boolean;
}

/**
 * A user; to librarians (`seePinLock`) with their card's wrong PINs counted and lock as they stand now, and
 * the control that clears them.
 */
export function renderUser(
  user: User & Partial<PatronContact> & Partial<PinRecord> & { version?: number },
  ctx: RenderContext,
  options: UserRenderOptions = {},
) {
  const { uris, caller, policy } = ctx;
  // A patron's card and contact are theirs and the librarians' to see.
  const contact = policy.seeUser(caller, user.id).allowed ? contactOf(user) : undefined;
  const links: Resource['links'] = [{ rel: 'self', href: uris.user(user.id) }];
  if (policy.seeUser(caller, user.id).allowed) {
    links.push({ rel: 'loans', href: uris.userLoans(user.id, firstPage), title: `Loans of ${user.name}` });
    links.push({ rel: 'holds', href: uris.userHolds(user.id, firstPage), title: `Holds of ${user.name}` });
  }
  if (policy.seeAccount(caller, user.id).allowed) {
    links.push({ rel: 'account', href: uris.userAccount(user.id), title: `Account of ${user.name}` });
    links.push({ rel: 'payment', href: uris.userPayments(user.id), title: 'Payments' });
  }
  const seesNotices = policy.seeNotices(caller).allowed;
  const noEmail = seesNotices && user.email === null;
  if (seesNotices) {
    const title = noEmail ? 'Notices: none are sent, no email address' : `Notices to ${user.name}`;
    links.push({ rel: 'notices', href: uris.userNotices(user.id), title });
  }
  if (policy.manageTokens(caller, user.id).allowed) {
    links.push({ rel: 'tokens', href: uris.userTokens(user.id), title: 'Tokens' });
  }
  if (policy.manageUsers(caller).allowed) links.push({ rel: 'collection', href: uris.firstPages.users });
  // Each to the callers who may read it: branches, everyone signed in; patron categories, librarians.
  if (policy.manageLending(caller).allowed) {
    links.push({ rel: 'patron_category', href: uris.patronCategory(user.patron_category_id) });
  }
  if (policy.seeBranches(caller).allowed) links.push({ rel: 'home_branch', href: uris.branch(user.home_branch_id) });
  const controls = options.asItem ? [] : offered(ctx, user, [changeUser.update, changeUser.edit]);
  if (!options.asItem && contact) {
    controls.push(...offered(ctx, { id: user.id, pin_set: contact.pin_set }, [setPin, removePin]));
  }
  const stored = pinRecordOf(user);
  const lock = stored && policy.seePinLock(caller).allowed ? policy.pinLock(stored) : undefined;
  if (!options.asItem && stored && lock) controls.push(...offered(ctx, { id: user.id, ...stored }, [unlockPin]));
  const resource: Resource = {
    kind: 'user',
    state: pick(
      {
        id: user.id,
        name: user.name,
        role: user.role,
        patron_category_id: user.patron_category_id,
        home_branch_id: user.home_branch_id,
        ...contact,
        // Said to librarians, who unlock a card at the desk: wrong PINs in a row, and until when it is locked.
        ...(lock && { pin_failures: lock.failures, pin_locked_until: lock.locked_until }),
        // Said to librarians, who answer at the desk for a notice the patron never got.
        ...(noEmail && { notices: NO_EMAIL_NOTICES }),
      },
      options.fields,
    ),
    links,
    controls,
  };
  if (user.version !== undefined) resource.version = user.version;
  return resource;
}

/** The card's wrong PINs as stored, when the user was read with them. */
function pinRecordOf(user: Partial<PinRecord>): PinRecord | undefined {
  if (user.pin_failures === undefined || user.pin_locked_until === undefined) return undefined;
  return { pin_failures: user.pin_failures, pin_locked_until: user.pin_locked_until };
}

/** The contact fields, when the user was read with them. */
function contactOf(user: Partial<PatronContact>): PatronContact | undefined {
  if (user.pin_set === undefined) return undefined;
  return {
    card_number: user.card_number ?? null,
    email: user.email ?? null,
    language: user.language ?? null,
    pin_set: user.pin_set,
  };
}

/** A token as its owner (or a librarian) sees it: never the secret, except `secret` once at creation. */
export function renderToken(
  token: Token,
  ctx: RenderContext,
  options: { secret?: string; asItem?: boolean; fields?: string[] | undefined } = {},
) {
  const { uris } = ctx;
  const href = uris.userToken(token.user_id, token.id);
  const resource: Resource = {
    kind: 'token',
    state: {
      ...pick({ id: token.id, user_id: token.user_id, name: token.name, created_at: token.created_at }, options.fields),
      ...(options.secret !== undefined && { token: options.secret }),
    },
    links: [
      { rel: 'self', href },
      { rel: 'collection', href: uris.userTokens(token.user_id) },
      { rel: 'up', href: uris.user(token.user_id) },
    ],
    controls: options.asItem ? [] : offered(ctx, token, [revokeToken]),
  };
  return resource;
}

/** A user's tokens, as a paged collection with a `create` control while the user is below the cap. */
export function tokensCollection(userId: number, held: number, ctx: RenderContext): Collection {
  const { uris } = ctx;
  return {
    itemKind: 'token',
    uri: (params) => uris.userTokens(userId, params),
    controls: offered(ctx, { userId, held }, [createToken]),
    links: [{ rel: 'up', href: uris.user(userId) }],
  };
}
