/**
 * @module The SIP2 listener's own reads and writes: its terminals (added by operators with the CLI, read at
 * each 93 login), a copy as item information describes it, and the charges a patron still owes. Lending,
 * returning and renewing go through circulation's own transactions.
 */
import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { CHARGE_KINDS } from '../../domain/account.js';
import type { CopyStatus } from '../../domain/copy.js';
import { Conflict, UnprocessableEntity } from '../../domain/errors.js';
import type { Sip2Charset, Sip2Terminal, Sip2TerminalSignIn } from '../../domain/sip2-terminal.js';
import type { Db } from '../client.js';
import { constraintViolation } from '../errors.js';
import { accountEntries, books, branches, copies, holds, sip2Terminals, users } from '../schema/index.js';
import { copyColumns } from './circulation-columns.js';

const terminalColumns = {
  id: sip2Terminals.id,
  login: sip2Terminals.login,
  institutionId: sip2Terminals.institutionId,
  errorDetection: sip2Terminals.errorDetection,
  charset: sql<Sip2Charset>`${sip2Terminals.charset}`,
  branchId: sip2Terminals.branchId,
  userId: sip2Terminals.userId,
};

/** Adds a terminal; 409 for a login in use, 422 for a branch or user that does not exist. */
export async function insertTerminal(db: Db, input: Omit<Sip2TerminalSignIn, 'id'>): Promise<Sip2Terminal> {
  try {
    const [terminal] = await db.insert(sip2Terminals).values(input).returning(terminalColumns);
    return terminal as Sip2Terminal;
  } catch (error) {
    const violation = constraintViolation(error)?.constraint;
    if (violation === 'sip2_terminals_login_idx') throw new Conflict(`a terminal with login ${input.login} exists`);
    if (violation === 'sip2_terminals_branch_id_branches_id_fk') {
      throw new UnprocessableEntity('branch_id names no branch', { branch_id: 'names no branch' });
    }
    if (violation === 'sip2_terminals_user_id_users_id_fk') {
      throw new UnprocessableEntity('user_id names no user', { user_id: 'names no user' });
    }
    throw error;
  }
}

/** The terminal with this login, with its password's hash; `undefined` for none. */
export async function findTerminalSignIn(db: Db, params: { login: string }): Promise<Sip2TerminalSignIn | undefined> {
  const [terminal] = await db
    .select({ ...terminalColumns, passwordHash: sip2Terminals.passwordHash })
    .from(sip2Terminals)
    .where(eq(sip2Terminals.login, params.login));
  return terminal;
}

/** Every terminal, by login. */
export function listTerminals(db: Db): Promise<Sip2Terminal[]> {
  return db.select(terminalColumns).from(sip2Terminals).orderBy(asc(sip2Terminals.login));
}

/** Removes the terminal with this login; whether there was one. */
export async function deleteTerminal(db: Db, params: { login: string }): Promise<boolean> {
  const rows = await db
    .delete(sip2Terminals)
    .where(eq(sip2Terminals.login, params.login))
    .returning({ id: sip2Terminals.id });
  return rows.length > 0;
}

/** A copy as item information describes it: its status, title, branches and the book's queue. */
export interface ItemInformation {
  id: number;
  barcode: string;
  title: string;
  status: CopyStatus;
  due_at: string | null;
  home_branch: string;
  location_branch: string;
  transit_to_branch: string | null;
  /** Open holds on the book: its queue. */
  holds_queued: number;
}

/** The copy with this barcode as item information describes it; `undefined` for no such barcode. */
export async function findItemInformation(db: Db, params: { barcode: string }): Promise<ItemInformation | undefined> {
  const [row] = await db
    .select({
      id: copies.id,
      barcode: sql<string>`${copies.barcode}`,
      title: books.title,
      status: copyColumns.status,
      due_at: copyColumns.due_at,
      home_branch: sql<string>`(select "home"."name" from ${branches} as "home" where "home"."id" = ${copies.branchId})`,
      location_branch: sql<string>`(select "here"."name" from ${branches} as "here" where "here"."id" = ${copies.locationBranchId})`,
      transit_to_branch: sql<
        string | null
      >`(select "there"."name" from ${branches} as "there" where "there"."id" = ${copies.transitToBranchId})`,
      holds_queued: sql<number>`(select count(*)::int from ${holds} as "queued" where "queued"."book_id" = ${copies.bookId} and "queued"."status" in ('waiting', 'in_transit', 'ready'))`,
    })
    .from(copies)
    .innerJoin(books, eq(books.id, copies.bookId))
    .where(eq(copies.barcode, params.barcode));
  return row && { ...row, holds_queued: Number(row.holds_queued) };
}

/** How many of the user's charges are not wholly waived: what patron information counts as fine items. */
export async function countCharges(db: Db, params: { userId: number }): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(accountEntries)
    .where(
      and(
        eq(accountEntries.userId, params.userId),
        inArray(accountEntries.kind, [...CHARGE_KINDS]),
        gt(sql`${accountEntries.amount} - ${accountEntries.waived}`, 0),
      ),
    );
  return Number(row?.n ?? 0);
}

/** The card number of a user (the patron a hold serves, named on a check-in's answer), or null. */
export async function findCardNumber(db: Db, params: { userId: number }): Promise<string | null> {
  const [row] = await db.select({ card: users.cardNumber }).from(users).where(eq(users.id, params.userId));
  return row?.card ?? null;
}
