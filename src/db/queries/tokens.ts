/** @module Reads and writes of bearer tokens. Secrets never reach this module, only their hashes. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { PagedListing } from '../../domain/listing.js';
import { tokenListingSpec } from '../../domain/listings.js';
import { tooManyTokens } from '../../domain/refusals.js';
import type { Token } from '../../domain/token.js';
import type { Db } from '../client.js';
import { constraintViolation } from '../errors.js';
import { tokens } from '../schema/index.js';
import { listingTable, readPage } from './listing.js';
import { isoTimestamp } from './sql.js';

const tokenColumns = {
  id: tokens.id,
  user_id: tokens.userId,
  name: tokens.name,
  created_at: isoTimestamp(tokens.createdAt),
};

export async function insertToken(
  db: Db,
  params: { userId: number; name: string; hash: string; operator?: boolean },
): Promise<Token> {
  const [token] = await db
    .insert(tokens)
    .values({ userId: params.userId, name: params.name, secretHash: params.hash, operator: params.operator ?? false })
    .returning(tokenColumns)
    .catch(rejectedToken);
  return token as Token;
}

/** The trigger that caps a user's tokens (migration 0006): the same refusal as `policy.createToken`, should two creations race. */
const TOKENS_PER_USER_CAP = 'tokens_per_user_cap';

function rejectedToken(error: unknown): never {
  if (constraintViolation(error)?.constraint === TOKENS_PER_USER_CAP) throw tooManyTokens();
  throw error;
}

/** A user's tokens, oldest first (the operator CLI lists them all: at most `MAX_TOKENS_PER_USER`). */
export async function listTokens(db: Db, params: { userId: number }): Promise<Token[]> {
  return db.select(tokenColumns).from(tokens).where(eq(tokens.userId, params.userId)).orderBy(asc(tokens.id));
}

export async function findToken(db: Db, params: { userId: number; id: number }): Promise<Token | undefined> {
  const [token] = await db
    .select(tokenColumns)
    .from(tokens)
    .where(and(eq(tokens.userId, params.userId), eq(tokens.id, params.id)));
  return token;
}

/** Revokes a token; answers whether it existed. */
export async function deleteToken(db: Db, params: { userId: number; id: number }): Promise<boolean> {
  const deleted = await db
    .delete(tokens)
    .where(and(eq(tokens.userId, params.userId), eq(tokens.id, params.id)))
    .returning({ id: tokens.id });
  return deleted.length > 0;
}

/** Whether a token with this hash exists (start-up uses it for the admin token). */
export async function tokenHashExists(db: Db, params: { hash: string }): Promise<boolean> {
  const [row] = await db.select({ id: tokens.id }).from(tokens).where(eq(tokens.secretHash, params.hash));
  return row !== undefined;
}

/** Revokes the token with this hash (a browser session's, at sign-out); answers whether it existed. */
export async function deleteTokenByHash(db: Db, params: { hash: string }): Promise<boolean> {
  const deleted = await db.delete(tokens).where(eq(tokens.secretHash, params.hash)).returning({ id: tokens.id });
  return deleted.length > 0;
}

/** A user's tokens as a listing (id and name sort and filter; the scope is the user). */
const tokenListing = listingTable(tokenListingSpec, {
  from: tokens,
  selection: tokenColumns,
  columns: { id: tokens.id, name: tokens.name },
  id: tokens.id,
  // Tokens are never searched (`tokenListingSpec`); a listing table names a search all the same.
  search: { column: sql`to_tsvector('simple'::regconfig, ${tokens.name})`, config: 'simple' },
});

/** One page of a user's tokens and its total. */
export function listTokensPage(db: Db, listing: PagedListing, params: { userId: number }) {
  return readPage<Token>(db, tokenListing, listing, { conditions: [eq(tokens.userId, params.userId)] });
}

/** How many tokens a user holds (the cap decides whether `create` is offered). */
export async function countTokens(db: Db, params: { userId: number }): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(tokens)
    .where(eq(tokens.userId, params.userId));
  return row?.n ?? 0;
}
