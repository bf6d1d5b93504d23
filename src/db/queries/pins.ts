/**
 * @module Library cards' PINs: the hash a sign-in checks, and the count of wrong PINs that locks a card. Each
 * step is one conditional UPDATE of the user's row, so concurrent guesses queue on the row and none is
 * counted past the limit: once one of them locks the card, the others find it locked and change nothing.
 */
import { and, eq, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { users } from '../schema/index.js';
import { businessTime, isoTimestamp } from './sql.js';

/** A card's sign-in state as read before its PIN is checked; never shown to anyone. */
export interface CardSignIn {
  userId: number;
  /** The stored hash, or null for a card with no PIN (it cannot sign in). */
  pinHash: string | null;
  /** Until when the card is locked (ISO 8601), or null. */
  lockedUntil: string | null;
}

/** What a card's PIN step found: done, or the card locked until then, or the PIN changed meanwhile. */
export type PinStep = { done: true } | { done: false; lockedUntil: string | null };

/** The card with this number, or of this user; `undefined` for none. */
export async function findCardSignIn(
  db: Db,
  params: { cardNumber: string } | { userId: number },
): Promise<CardSignIn | undefined> {
  const [card] = await db
    .select({ userId: users.id, pinHash: users.pinHash, lockedUntil: isoTimestamp(users.pinLockedUntil) })
    .from(users)
    .where('cardNumber' in params ? eq(users.cardNumber, params.cardNumber) : eq(users.id, params.userId));
  return card;
}

/**
 * A right PIN: the count of wrong ones starts again. Done only while the card is unlocked and still has
 * the PIN checked (a guess that locked it, or a new PIN, since it was read wins).
 */
export async function acceptRightPin(db: Db, params: PinParams): Promise<PinStep> {
  const rows = await db
    .update(users)
    .set({ pinFailures: 0, pinLockedUntil: null })
    .where(unlockedWithPin(params))
    .returning({ id: users.id });
  return rows.length > 0 ? { done: true } : notDone(db, params);
}

/**
 * A wrong PIN, counted; the one that reaches `attempts` in a row locks the card until `lockedUntil`. A lock
 * that has run out is lifted by the next wrong PIN, which counts as the first of a new run.
 */
export async function countWrongPin(
  db: Db,
  params: PinParams & { attempts: number; lockedUntil: Date },
): Promise<PinStep> {
  const failures = sql`case when ${users.pinLockedUntil} is null then ${users.pinFailures} + 1 else 1 end`;
  const rows = await db
    .update(users)
    .set({
      pinFailures: failures as SQL<number>,
      pinLockedUntil: sql`case when ${failures} >= ${params.attempts} then ${businessTime(params.lockedUntil)} end`,
    })
    .where(unlockedWithPin(params))
    .returning({ id: users.id });
  return rows.length > 0 ? { done: true } : notDone(db, params);
}

/**
 * Sets a user's PIN (its hash) and lifts any lock, the count of wrong PINs starting again; when
 * `currentHash` is given, only if that is still the PIN (a patron's change races nobody's reset).
 * Answers whether the user's row was changed.
 */
export async function storePin(
  db: Db,
  params: { userId: number; pinHash: string; currentHash?: string | null | undefined },
): Promise<boolean> {
  const current =
    params.currentHash === undefined
      ? undefined
      : params.currentHash === null
        ? isNull(users.pinHash)
        : eq(users.pinHash, params.currentHash);
  const rows = await db
    .update(users)
    .set({ pinHash: params.pinHash, pinFailures: 0, pinLockedUntil: null, version: sql`${users.version} + 1` })
    .where(and(eq(users.id, params.userId), current))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Clears a card's lock and its count of wrong PINs. Answers whether the user exists. */
export async function clearPinLock(db: Db, params: { userId: number }): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ pinFailures: 0, pinLockedUntil: null })
    .where(eq(users.id, params.userId))
    .returning({ id: users.id });
  return rows.length > 0;
}

/**
 * Removes a user's PIN, with its lock and count, only while there is one (of a removal and a reset racing,
 * whichever comes second decides). Answers whether a PIN was removed.
 */
export async function removePin(db: Db, params: { userId: number }): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ pinHash: null, pinFailures: 0, pinLockedUntil: null, version: sql`${users.version} + 1` })
    .where(and(eq(users.id, params.userId), sql`${users.pinHash} is not null`))
    .returning({ id: users.id });
  return rows.length > 0;
}

interface PinParams {
  userId: number;
  /** The hash the PIN was checked against. */
  pinHash: string;
  /** Business time now. */
  at: Date;
}

function unlockedWithPin(params: PinParams) {
  return and(
    eq(users.id, params.userId),
    eq(users.pinHash, params.pinHash),
    or(isNull(users.pinLockedUntil), lte(users.pinLockedUntil, businessTime(params.at))),
  );
}

/** Why a step changed nothing: the card locked since (until when), or its PIN changed (null). */
async function notDone(db: Db, params: PinParams): Promise<PinStep> {
  const [row] = await db
    .select({ lockedUntil: isoTimestamp(users.pinLockedUntil) })
    .from(users)
    .where(and(eq(users.id, params.userId), sql`${users.pinLockedUntil} > ${businessTime(params.at)}`));
  return { done: false, lockedUntil: row?.lockedUntil ?? null };
}
