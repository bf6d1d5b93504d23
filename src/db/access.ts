/**
 * @module First access to a catalogue: a librarian who can sign in. With `CATALOGUE_ADMIN_TOKEN`, that
 * token is registered (once) for a librarian; without it, a database with no users gets a librarian and
 * a fresh token, which start-up prints once.
 */
import { count } from 'drizzle-orm';
import { hashTokenSecret, newTokenSecret } from '../domain/token.js';
import type { Db } from './client.js';
import { insertToken, tokenHashExists } from './queries/tokens.js';
import { insertUser, promoteTokenOwner } from './queries/users.js';
import { users } from './schema/index.js';

export interface AccessOptions {
  adminToken?: string | undefined;
}

/** Answers the secret of a token it created, for start-up to show once; `undefined` otherwise. */
export async function ensureAccess(db: Db, options: AccessOptions): Promise<string | undefined> {
  if (options.adminToken) {
    const hash = hashTokenSecret(options.adminToken);
    // The operator's token is a librarian's, whatever became of its user since the last start.
    if (await tokenHashExists(db, { hash })) {
      await promoteTokenOwner(db, { hash });
      return undefined;
    }
    const admin = await insertUser(db, { name: 'Administrator', role: 'librarian' });
    await insertToken(db, { userId: admin.id, name: 'CATALOGUE_ADMIN_TOKEN', hash, operator: true });
    return undefined;
  }
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return undefined;
  const librarian = await insertUser(db, { name: 'Librarian', role: 'librarian' });
  const secret = newTokenSecret();
  await insertToken(db, { userId: librarian.id, name: 'first start', hash: hashTokenSecret(secret) });
  return secret;
}
