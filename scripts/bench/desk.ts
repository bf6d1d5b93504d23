/**
 * @module The circulation desk's check-out against a plain borrow, in one run: on a catalogue of its own
 * (`bench_desk`), one server, a librarian lends copies to a patron by card and barcode
 * (`POST /desk/checkouts`) and by book id (`POST /books/{id}/borrow` with `borrower_id`), one request at a
 * time in turns, each loan returned at once so the copies come back; the latencies of the two lendings
 * (not of the returns) are compared at p50.
 */
import postgres from 'postgres';
import { benchToken, catalogueEnv, postgresCatalogue } from './catalogues.js';
import { catalogueEntry, type Server, startServer } from './processes.js';
import { median, percentile, round2 } from './stats.js';

/** The desk's check-out p50 at most this many times the plain borrow's. */
export const DESK_TARGET = 1.5;
/** Books of the scenario's own catalogue. */
export const DESK_BOOKS = 10_000;
/** Check-outs and borrows measured per round (each round: this many of each, in turns). */
export const DESK_PER_ROUND = 50;
/** Books lent by barcode at the desk, and as many others lent by id: a copy of each, with a barcode. */
const BOOKS_EACH = 20;
/** The patron's library card. */
const CARD = 'BENCH-0000001';
/** Lendings of each kind before measuring: the server's code paths and statements warmed up. */
const WARM_UP = 20;

export interface DeskLatency {
  p50Ms: number;
  p90Ms: number;
}

export interface DeskFigures {
  rounds: number;
  /** Lendings of each kind measured. */
  samples: number;
  checkout: DeskLatency;
  borrow: DeskLatency;
  /** The check-out's p50 over the borrow's: the target's figure. */
  ratio: number;
}

interface Setup {
  patronId: number;
  branchId: number;
  /** Barcodes of copies lent at the desk. */
  barcodes: string[];
  /** Books lent by id. */
  bookIds: number[];
}

/** Makes the catalogue, serves it, warms up, measures `rounds` rounds; stops the server, drops the catalogue. */
export async function measureDesk(
  settings: { serverUrl: string; keep: boolean; rounds: number; logDir: string },
  log: (line: string) => void,
): Promise<DeskFigures> {
  log(`generating ${DESK_BOOKS.toLocaleString('en')} books in bench_desk`);
  const catalogue = await postgresCatalogue(settings.serverUrl, DESK_BOOKS, settings.keep, 'bench_desk');
  let server: Server | undefined;
  try {
    const setup = await setUpDesk(catalogue.env.DATABASE_URL);
    server = await startServer({
      name: 'desk',
      args: catalogueEntry('server'),
      env: { ...catalogueEnv, ...catalogue.env },
      readyPath: '/health',
      logDir: settings.logDir,
    });
    const lend = lender(server, setup);
    for (let i = 0; i < WARM_UP; i++) {
      await lend('checkout', i);
      await lend('borrow', i);
    }
    const times = { checkout: [] as number[], borrow: [] as number[] };
    for (let round = 0; round < settings.rounds; round++) {
      // Which goes first alternates by round, so neither always follows the other's return.
      const order = round % 2 === 0 ? (['checkout', 'borrow'] as const) : (['borrow', 'checkout'] as const);
      const before = { checkout: times.checkout.length, borrow: times.borrow.length };
      for (let i = 0; i < DESK_PER_ROUND; i++) {
        for (const kind of order) times[kind].push(await lend(kind, i));
      }
      const p50 = (kind: 'checkout' | 'borrow') => median(times[kind].slice(before[kind])).toFixed(2);
      log(`round ${round + 1}: check-out by barcode p50 ${p50('checkout')} ms, borrow by id p50 ${p50('borrow')} ms`);
    }
    const latency = (samples: number[]): DeskLatency => ({
      p50Ms: round2(median(samples)),
      p90Ms: round2(percentile(samples, 90)),
    });
    return {
      rounds: settings.rounds,
      samples: times.checkout.length,
      checkout: latency(times.checkout),
      borrow: latency(times.borrow),
      ratio: round2(median(times.checkout) / median(times.borrow)),
    };
  } finally {
    await server?.stop();
    await catalogue.drop();
  }
}

/**
 * A patron with a library card, and a copy with a barcode of each of the books lent, on the shelf at the
 * default branch. Copies float, so one returned stays on the shelf for its next lending rather than
 * travelling (transit is not what this measures, and a copy in transit is not lent).
 */
async function setUpDesk(url: string): Promise<Setup> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await sql.begin(async (tx) => {
      const [branch] = await tx<{ id: number }[]>`select default_branch() as id`;
      const branchId = (branch as { id: number }).id;
      const [patron] = await tx<{ id: number }[]>`
        insert into users (name, role, card_number) values ('Bench desk patron', 'member', ${CARD}) returning id`;
      await tx`update loan_rules set floating = true`;
      const bookIds = Array.from({ length: 2 * BOOKS_EACH }, (_, i) => i + 1);
      for (const bookId of bookIds) {
        await tx`insert into copies (book_id, branch_id, location_branch_id, item_type_id, barcode)
          values (${bookId}, ${branchId}, ${branchId}, default_item_type(), ${`BENCH-COPY-${bookId}`})`;
      }
      await tx`select settle_circulation(id, 7, now()) from books where id <= ${2 * BOOKS_EACH}`;
      return {
        patronId: (patron as { id: number }).id,
        branchId,
        barcodes: bookIds.slice(0, BOOKS_EACH).map((id) => `BENCH-COPY-${id}`),
        bookIds: bookIds.slice(BOOKS_EACH),
      };
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/**
 * Lends the `i`th copy of its kind (at the desk by card and barcode, or by book id with `borrower_id`) and
 * returns the loan at once; answers the lending's milliseconds, its answer read. Any answer but 201 then
 * 200 fails.
 */
function lender(server: Server, setup: Setup): (kind: 'checkout' | 'borrow', i: number) => Promise<number> {
  const headers = {
    accept: 'application/json',
    'content-type': 'application/json',
    authorization: `Bearer ${benchToken}`,
  };
  return async (kind, i) => {
    const [path, body] =
      kind === 'checkout'
        ? [
            '/desk/checkouts',
            { card_number: CARD, barcode: setup.barcodes[i % setup.barcodes.length], branch_id: setup.branchId },
          ]
        : [
            `/books/${setup.bookIds[i % setup.bookIds.length]}/borrow`,
            { borrower_id: setup.patronId, branch_id: setup.branchId },
          ];
    const started = performance.now();
    const lent = await fetch(`${server.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const answer = await lent.text();
    const elapsed = performance.now() - started;
    const location = lent.headers.get('location');
    if (lent.status !== 201 || !location)
      throw new Error(`POST ${path} answered ${lent.status}: ${answer.slice(0, 300)}`);
    // The loan's path, asked of this server whatever origin the catalogue names in its URIs.
    const returned = await fetch(`${server.url}${new URL(location, server.url).pathname}`, {
      method: 'PATCH',
      headers,
      body: '{"status":"returned"}',
    });
    await returned.arrayBuffer();
    if (returned.status !== 200) throw new Error(`PATCH ${location} answered ${returned.status}`);
    return elapsed;
  };
}
