/**
 * @module The database an operator command works on: the one the service is configured for, migrated and
 * seeded as a start of the service would, and closed when the command ends, however it ends.
 */
import { loadConfig } from '../config.js';
import { type Db, openDatabase } from '../db/client.js';
import { prepareDatabase } from '../db/migrate.js';

/** Runs `work` on the configured database; on the embedded one, this process owns its directory meanwhile. */
export async function withDatabase(work: (db: Db) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config.database);
  try {
    const firstToken = await prepareDatabase(database, {
      seedSample: config.seedSample,
      adminToken: config.adminToken,
      lending: config.access,
    });
    if (firstToken) print(`first start: a librarian was created; their token (shown only now):\ntoken ${firstToken}`);
    await work(database.db);
  } finally {
    await database.close();
  }
}

/** Writes a command's answer, a line or several, on stdout. */
export function print(text: string): void {
  process.stdout.write(`${text}\n`);
}
