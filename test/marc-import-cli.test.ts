/**
 * `catalogue import FILE` on the database the service is configured for: a small MARCXML file imported, its
 * summary printed (counts, then each refusal with its number), and the same file again matched, not doubled
 * (its indexes set aside for the load, `--indexes rebuild`).
 */
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../src/db/client.js';
import { type FreshDatabase, freshDatabase } from './support/database.js';
import { runScript } from './support/script.js';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const FILE = fileURLToPath(new URL('./fixtures/marc/mixed.xml', import.meta.url));

describe('catalogue import', () => {
  let fresh: FreshDatabase;
  const settings = () => ({ ...fresh.env, CATALOGUE_SEED: 'none', CATALOGUE_ADMIN_TOKEN: '' });

  beforeAll(async () => {
    fresh = await freshDatabase({ persistent: true, label: 'import_cli' });
  });
  afterAll(async () => {
    await fresh?.drop();
  });

  it('imports a file, prints a summary with each refusal, and matches the same file the second time', async () => {
    const first = await runScript(CLI, ['import', FILE], settings());
    expect(first.code, first.output).toBe(0);
    expect(first.stdout).toContain('7 records: 2 imported, 1 matched, 4 refused; 2 authors created');
    expect(first.stdout).toMatch(/^record 3: refused: no title/m);
    expect(first.stdout).toMatch(/^record 5: refused: bad ISBN/m);

    // With the indexes set aside for the load, as a large file's import does: the same matching.
    const again = await runScript(CLI, ['import', FILE, '--source', 'OCoLC', '--indexes', 'rebuild'], settings());
    expect(again.code, again.output).toBe(0);
    expect(again.stdout).toContain('7 records: 0 imported, 3 matched, 4 refused; 0 authors created');
    expect(again.stderr).toMatch(/secondary indexes of books and copies set aside for the load/);
    // The rebuild is a phase of the progress of its own, from none built to every one.
    expect(again.stderr).toMatch(/^0% 0\/(\d+) indexes built .*\n(?:.*\n)*100% \1\/\1 indexes built /m);

    const database = await openDatabase(fresh.target);
    try {
      const [row] = rowsOf<{ n: number }>(await database.db.execute(sql`select count(*)::integer as n from books`));
      expect(row?.n).toBe(2);
    } finally {
      await database.close();
    }
  }, 120_000);

  it('refuses a file whose format it cannot tell, before touching the database', async () => {
    const run = await runScript(CLI, ['import', '/etc/hostname'], settings());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot tell the format/);
  }, 60_000);
});
