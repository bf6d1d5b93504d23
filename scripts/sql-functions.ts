/**
 * Writes drizzle/functions/: migrates a fresh in-memory PGlite with the committed migrations, as a server
 * does at start-up, and writes one file per SQL function with its triggers, as the database states them,
 * removing the files of functions that no longer exist. Run with `npm run db:functions` after adding a
 * migration that creates, replaces or drops a function or a trigger.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openPglite } from '../src/db/client.js';
import { prepareDatabase } from '../src/db/migrate.js';
import {
  functionFileText,
  functionsFolder,
  readCommittedFunctionFiles,
  readFunctionFiles,
} from '../src/db/sql-functions.js';

const database = await openPglite({ kind: 'pglite', dataDir: 'memory://' });
try {
  await prepareDatabase(database, { seedSample: false });
  const files = await readFunctionFiles(database.db);
  const committed = await readCommittedFunctionFiles();
  await mkdir(functionsFolder, { recursive: true });
  const changed: string[] = [];
  for (const entry of files) {
    const text = functionFileText(entry);
    if (committed.get(entry.file) === text) continue;
    await writeFile(join(functionsFolder, entry.file), text);
    changed.push(entry.file);
  }
  const current = new Set(files.map((entry) => entry.file));
  const removed = [...committed.keys()].filter((file) => !current.has(file));
  for (const file of removed) await rm(join(functionsFolder, file));

  const functions = files.reduce((n, entry) => n + entry.functions.length, 0);
  const triggers = files.reduce((n, entry) => n + entry.triggers.length, 0);
  console.log(`drizzle/functions/: ${functions} functions, ${triggers} triggers in ${files.length} files`);
  for (const file of changed) console.log(`  written ${file}`);
  for (const file of removed) console.log(`  removed ${file}`);
} finally {
  await database.close();
}
