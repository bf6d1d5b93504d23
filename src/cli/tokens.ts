/** @module `catalogue tokens add|list|revoke`: a user's bearer tokens, whose secrets are shown only when made. */
import type { Command } from 'commander';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { insertToken, listTokens } from '../db/queries/tokens.js';
import { findUser } from '../db/queries/users.js';
import { tokens } from '../db/schema/index.js';
import { hashTokenSecret, newTokenSecret } from '../domain/token.js';
import { positiveWholeNumber, UsageError } from './arguments.js';
import { print, withDatabase } from './database.js';

export function addTokensCommands(program: Command): void {
  const group = program.command('tokens').description("add, list and revoke a user's tokens");

  group
    .command('add')
    .description("add a token for a user (printed once, with the token's id)")
    .requiredOption('--user <id>', "the user's id", positiveWholeNumber)
    .option('--name <label>', 'a label to tell the token by', 'cli')
    .action(async (options: { user: number; name: string }) => {
      await withDatabase(async (db) => {
        if (!(await findUser(db, { id: options.user }))) throw new UsageError(`no user ${options.user}`);
        const token = await addToken(db, options.user, options.name);
        print(`token ${token.secret}\ntoken id ${token.id}`);
      });
    });

  group
    .command('list')
    .description("list a user's tokens: id, date made and label, never the secret")
    .requiredOption('--user <id>', "the user's id", positiveWholeNumber)
    .action(async (options: { user: number }) => {
      await withDatabase(async (db) => {
        const rows = await listTokens(db, { userId: options.user });
        print(rows.map((t) => `${t.id}\t${t.created_at}\t${t.name}`).join('\n') || '(no tokens)');
      });
    });

  group
    .command('revoke')
    .description('revoke a token: it is refused from then on, by every server')
    .requiredOption('--id <id>', "the token's id (as `tokens list` shows it)", positiveWholeNumber)
    .action(async (options: { id: number }) => {
      await withDatabase(async (db) => {
        const deleted = await db.delete(tokens).where(eq(tokens.id, options.id)).returning({ id: tokens.id });
        if (deleted.length === 0) throw new UsageError(`no token ${options.id}`);
        print(`revoked token ${options.id}`);
      });
    });
}

/** A new token for the user; its secret is known only now, the database keeping its hash. */
export async function addToken(db: Db, userId: number, name: string): Promise<{ id: number; secret: string }> {
  const secret = newTokenSecret();
  const token = await insertToken(db, { userId, name, hash: hashTokenSecret(secret) });
  return { id: token.id, secret };
}
