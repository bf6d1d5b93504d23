/**
 * @module The rate of creating books (`POST /books`, as a librarian) with the dictionary of the
 * catalogue's words kept by triggers in the writing transaction, against the same server and database
 * with those triggers disabled, in interleaved rounds: what keeping the dictionary costs a writer.
 * Runs last on its catalogue, and deletes the books it wrote.
 */
import postgres from 'postgres';
import { ADJECTIVES, COMMON_WORDS, NOUNS } from '../../src/db/generate.js';
import type { Catalogue } from './catalogues.js';
import type { Server } from './processes.js';
import type { ThroughputResult } from './throughput.js';
import { interleave, type WrkLoad, type WrkRun } from './wrk.js';

const script = new URL('./wrk-writes.lua', import.meta.url).pathname;

/** The triggers that keep the dictionary up to date as books are written (migration `search_words`). */
const DICTIONARY_TRIGGERS = 'books\\_words\\_%';

export const WRITES_SCENARIO = {
  key: 'create-book',
  label: '`POST /books` (creating a book), with the dictionary kept in the same transaction',
  target: 0.8,
  referenceLabel: 'the same, dictionary triggers disabled',
};

export interface WriteSettings {
  seconds: number;
  connections: number;
  threads: number;
  rounds: number;
  /** A librarian's bearer token. */
  token: string;
}

export async function measureWrites(
  server: Server,
  catalogue: Catalogue,
  settings: WriteSettings,
  log: (line: string) => void,
): Promise<ThroughputResult> {
  const url = catalogue.env.DATABASE_URL;
  if (url === undefined) return failed('writes are measured on PostgreSQL only');
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const triggers = (
      await sql<{ name: string }[]>`
        select tgname as name from pg_trigger
        where tgrelid = 'books'::regclass and not tgisinternal and tgname like ${DICTIONARY_TRIGGERS}
        order by tgname`
    ).map((row) => row.name);
    if (triggers.length === 0) return failed('the books table has no dictionary triggers (books_words_*)');
    const [authors] = await sql<{ first: number; last: number }[]>`
      select min(id)::int as first, max(id)::int as last from authors`;
    if (!authors) return failed('the catalogue has no authors');
    /**
     * Within one transaction: enables or disables the triggers, then does `then`. ALTER TABLE waits for
     * every write in flight and holds off new ones until the transaction ends, so what `then` sees of the
     * books was all written with the triggers as they were, and every book written after, as they are.
     */
    const withTriggers = <T>(kept: boolean, then: (tx: postgres.TransactionSql) => Promise<T>) =>
      sql.begin(async (tx) => {
        for (const name of triggers) {
          await tx.unsafe(`alter table books ${kept ? 'enable' : 'disable'} trigger "${name.replaceAll('"', '""')}"`);
        }
        return then(tx);
      });
    const lastBookId = async (tx: postgres.Sql | postgres.TransactionSql = sql) =>
      Number((await tx<{ id: number }[]>`select coalesce(max(id), 0)::int as id from books`)[0]?.id);
    // Where each run's books begin, and whether the dictionary was kept for them, so that each is deleted
    // as it was written and the dictionary ends as it began.
    const runs: { after: number; kept: boolean }[] = [];
    const lastBefore = await lastBookId();
    const startRun = (kept: boolean) => async () => {
      await settled(() => lastBookId());
      runs.push({ after: await withTriggers(kept, lastBookId), kept });
    };
    const load: WrkLoad = {
      url: server.url,
      path: '/books',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        Authorization: `Bearer ${settings.token}`,
      },
      seconds: settings.seconds,
      connections: settings.connections,
      threads: settings.threads,
      script: {
        file: script,
        args: ['/books', String(authors.first), String(authors.last), ...[ADJECTIVES, COMMON_WORDS, NOUNS].map(String)],
      },
    };
    try {
      const contenders = await interleave(
        [
          { name: 'dictionary off', load, before: startRun(false) },
          { name: 'dictionary kept', load, before: startRun(true) },
        ],
        settings.rounds,
        (name: string, run: WrkRun) =>
          log(
            `    ${name.padEnd(16)} ${Math.round(run.requestsPerSecond).toString().padStart(7)} books/s  p50 ${run.latencyMs.p50.toFixed(2)} ms`,
          ),
      );
      const [reference, subject] = contenders;
      const ratio = Math.round(((subject?.median ?? Number.NaN) / (reference?.median ?? Number.NaN)) * 1000) / 1000;
      log(`    → dictionary kept / off = ${ratio} (target ≥ ${WRITES_SCENARIO.target})`);
      return { ...WRITES_SCENARIO, contenders, ratio };
    } finally {
      await settled(() => lastBookId());
      let deleted = 0;
      for (const [i, run] of runs.entries()) {
        const until = runs[i + 1]?.after;
        const rows = await withTriggers(
          run.kept,
          (tx) => tx`delete from books where id > ${run.after} ${until === undefined ? tx`` : tx`and id <= ${until}`}`,
        );
        deleted += rows.count;
      }
      await withTriggers(true, async () => {});
      log(`    deleted the ${deleted} books written (ids past ${lastBefore})`);
    }
  } catch (error) {
    return failed(error instanceof Error ? error.message : String(error));
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Waits until no book has been written for a while: requests the server still held when wrk stopped may
 * write after it, and must land in the run they belong to.
 */
async function settled(lastBookId: () => Promise<number>): Promise<void> {
  let last = await lastBookId();
  for (let tries = 0; tries < 50; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await lastBookId();
    if (now === last) return;
    last = now;
  }
}

function failed(error: string): ThroughputResult {
  return { ...WRITES_SCENARIO, contenders: [], ratio: Number.NaN, error };
}
