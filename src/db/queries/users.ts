/** @module Reads and writes of users, and who a bearer token belongs to. */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { Conflict, InvalidInput, UnprocessableEntity } from '../../domain/errors.js';
import type { LoansOfKind } from '../../domain/lending-rules.js';
import type { Listing, PagedListing } from '../../domain/listing.js';
import { userListingSpec } from '../../domain/listings.js';
import type { SignedIn } from '../../domain/policy.js';
import type { StoredUser, UserInput } from '../../domain/user.js';
import type { Database, Db } from '../client.js';
import { prepared } from '../prepared.js';
import { accounts, copies, holds, loans, patronCategories, tokens, users } from '../schema/index.js';
import { listingTable, readAll, readPage } from './listing.js';
import { isoTimestamp } from './sql.js';
import { atVersions, rejectedWrite } from './writes.js';

const userColumns = {
  id: users.id,
  name: users.name,
  role: users.role,
  patron_category_id: users.patronCategoryId,
  home_branch_id: users.homeBranchId,
  card_number: users.cardNumber,
  email: users.email,
  language: users.language,
  // Whether there is a PIN, never the hash: no read of a user carries it.
  pin_set: sql<boolean>`${users.pinHash} is not null`,
  // The card's wrong PINs as stored; what they mean now is the policy's (`pinLock`), for librarians.
  pin_failures: users.pinFailures,
  pin_locked_until: isoTimestamp(users.pinLockedUntil) as SQL<string | null>,
  version: users.version,
};

/** The columns a write of a user sets: those sent (the defaults, on creation, for the others). */
function userValues(input: Partial<UserInput>) {
  return {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.role !== undefined && { role: input.role }),
    ...(input.patron_category_id !== undefined && { patronCategoryId: input.patron_category_id }),
    ...(input.home_branch_id !== undefined && { homeBranchId: input.home_branch_id }),
    ...(input.card_number !== undefined && { cardNumber: input.card_number }),
    ...(input.email !== undefined && { email: input.email }),
    ...(input.language !== undefined && { language: input.language }),
  };
}

export const userListing = listingTable(userListingSpec, {
  from: users,
  selection: userColumns,
  columns: { id: users.id, name: users.name },
  filters: { role: users.role },
  id: users.id,
  search: { column: sql`to_tsvector('simple'::regconfig, ${users.name})`, config: 'simple' },
});

/** A signed-in caller's columns: who they are, their active loans, open holds and balance. */
const callerColumns = {
  id: users.id,
  name: users.name,
  role: users.role,
  patronCategoryId: users.patronCategoryId,
  homeBranchId: users.homeBranchId,
  activeLoans: sql<number>`(select count(*)::int from ${loans} as "held" where "held"."borrower_id" = ${users}."id" and "held"."returned_at" is null)`,
  openHolds: sql<number>`(select count(*)::int from ${holds} as "open" where "open"."borrower_id" = ${users}."id" and "open"."status" in ('waiting', 'in_transit', 'ready'))`,
  balance: sql<number>`coalesce((select ${accounts.balance} from ${accounts} where ${accounts.userId} = ${users}."id"), 0)`,
  loansByKind: sql<
    LoansOfKind[] | string
  >`(select coalesce(json_agg(json_build_object('item_type_id', "kind"."item_type_id", 'branch_id', "kind"."branch_id", 'count', "kind"."count")), '[]')
          from (select "lent_copy"."item_type_id", "lent"."branch_id", count(*)::int as "count"
            from ${loans} as "lent" join ${copies} as "lent_copy" on "lent_copy"."id" = "lent"."copy_id"
            where "lent"."borrower_id" = ${users}."id" and "lent"."returned_at" is null
            group by 1, 2) as "kind")`,
};

type CallerRow = Omit<SignedIn, 'kind' | 'loansByKind'> & { loansByKind: LoansOfKind[] | string };

/**
 * The signed-in caller behind a token hash, with their active loans, open holds and balance; `undefined` for an
 * unknown token.
 */
export async function findCallerByTokenHash(db: Db, params: { hash: string }): Promise<SignedIn | undefined> {
  const statement = prepared(db, 'find_caller_by_token_hash', (db) =>
    db
      .select(callerColumns)
      .from(tokens)
      .innerJoin(users, eq(users.id, tokens.userId))
      .where(eq(tokens.secretHash, sql.placeholder('hash')))
      .prepare('find_caller_by_token_hash'),
  );
  const [user] = await statement.execute(params);
  return user && callerOf(user);
}

/** The user with this id as a caller (a SIP2 terminal acts as its user); `undefined` for none. */
export async function findCallerById(db: Db, params: { id: number }): Promise<SignedIn | undefined> {
  const [user] = await db.select(callerColumns).from(users).where(eq(users.id, params.id));
  return user && callerOf(user);
}

function callerOf(user: CallerRow): SignedIn {
  // postgres.js and PGlite parse `json`; a driver that does not hands over its text.
  const loansByKind = typeof user.loansByKind === 'string' ? JSON.parse(user.loansByKind) : user.loansByKind;
  return {
    kind: 'user',
    ...user,
    activeLoans: Number(user.activeLoans),
    openHolds: Number(user.openHolds),
    balance: Number(user.balance),
    loansByKind,
  };
}

/**
 * Marks the token with this hash as the operator's and makes its owner a librarian (at start-up, for
 * CATALOGUE_ADMIN_TOKEN).
 */
export async function promoteTokenOwner(db: Db, params: { hash: string }): Promise<void> {
  await db.update(tokens).set({ operator: true }).where(eq(tokens.secretHash, params.hash));
  await db
    .update(users)
    .set({ role: 'librarian', version: sql`${users.version} + 1` })
    .where(
      and(
        sql`${users.id} = (select ${tokens.userId} from ${tokens} where ${tokens.secretHash} = ${params.hash})`,
        sql`${users.role} <> 'librarian'`,
      ),
    );
}

export async function findUser(db: Db, params: { id: number }): Promise<StoredUser | undefined> {
  const statement = prepared(db, 'find_user', (db) =>
    db
      .select(userColumns)
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .prepare('find_user'),
  );
  const [user] = await statement.execute(params);
  return user;
}

/**
 * A librarian is staff unless a category is named, as the migration made every librarian (staff are not
 * capped, as librarians never were); a library without a `staff` category gives them its default.
 */
const staffCategory = sql<number>`coalesce((select ${patronCategories.id} from ${patronCategories} where ${patronCategories.code} = 'staff'), default_patron_category())`;

export async function insertUser(db: Db, input: UserInput): Promise<StoredUser> {
  const [user] = await db
    .insert(users)
    .values({
      ...(input.role === 'librarian' && { patronCategoryId: staffCategory }),
      ...userValues(input),
      name: input.name,
      role: input.role,
    })
    .returning(userColumns)
    .catch(rejectedUser);
  return user as StoredUser;
}

export async function updateUser(
  db: Db,
  params: { id: number; changes: Partial<UserInput>; versions?: number[] },
): Promise<StoredUser | undefined> {
  const [user] = await db
    .update(users)
    .set({ ...userValues(params.changes), version: sql`${users.version} + 1` })
    .where(atVersions(users, params))
    .returning(userColumns)
    .catch(rejectedUser);
  return user;
}

/** One page of the listing and its total. */
export function listUsersPage(db: Db, listing: PagedListing) {
  return readPage<StoredUser>(db, userListing, listing);
}

/** Every item of the listing, streamed from a cursor. */
export function streamUsers(database: Database, listing: Listing) {
  return readAll<StoredUser>(database, userListing, listing);
}

/** The trigger that refuses to leave the catalogue without a librarian (migration 0005). */
const KEEP_A_LIBRARIAN = 'users_keep_a_librarian';
const OPERATOR_STAYS_LIBRARIAN = 'users_operator_stays_librarian';

const rejectedUser = rejectedWrite('user', {
  [KEEP_A_LIBRARIAN]: () =>
    new Conflict('the catalogue must keep at least one librarian: make another user a librarian first'),
  [OPERATOR_STAYS_LIBRARIAN]: () =>
    new Conflict("this user holds the operator's token (CATALOGUE_ADMIN_TOKEN) and stays a librarian"),
  users_patron_category_id_patron_categories_id_fk: () =>
    new UnprocessableEntity('patron_category_id names no patron category', {
      patron_category_id: 'names no patron category',
    }),
  users_home_branch_id_branches_id_fk: () =>
    new UnprocessableEntity('home_branch_id names no branch', { home_branch_id: 'names no branch' }),
  // Unique like a barcode: of two users given one card number at once, the index lets one have it.
  users_card_number_idx: () =>
    new Conflict('another user has that library card number', { card_number: 'is another user\u2019s card' }),
  users_email_shape: () =>
    new InvalidInput('email must be one address, name@domain, without spaces', {
      email: 'must be one address, name@domain, without spaces',
    }),
  users_language_tag: () =>
    new InvalidInput('language must be a BCP 47 language tag such as en or fr-CA', {
      language: 'must be a BCP 47 language tag such as en or fr-CA',
    }),
  users_card_number_not_blank: () =>
    new InvalidInput('card_number must not be blank', { card_number: 'must not be blank' }),
});
