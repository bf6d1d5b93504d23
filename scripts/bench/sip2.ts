/**
 * @module SIP2 checkouts against HTTP borrows, in one run: on a catalogue of its own (`bench_sip2`), one
 * server with its SIP2 listener, 32 terminals (each a TCP connection signed in once) lend and return copies by
 * barcode (11 checkout, 09 checkin) while, in turns, 32 HTTP clients lend and return by book id
 * (`POST /books/{id}/borrow` with `borrower_id`, `PATCH /loans/{id}`). Each lender has a patron and books of
 * its own; the figure is loans made per second, SIP2's over HTTP's.
 */
import { connect, type Socket } from 'node:net';
import postgres from 'postgres';
import { hashPin } from '../../src/domain/pin.js';
import { benchToken, catalogueEnv, postgresCatalogue } from './catalogues.js';
import { catalogueEntry, freePort, type Server, startServer } from './processes.js';
import { median, round2 } from './stats.js';

/** SIP2 checkouts per second at least this many times HTTP borrows per second. */
export const SIP2_TARGET = 0.8;
/** Books of the scenario's own catalogue. */
export const SIP2_BOOKS = 10_000;
/** Terminals, and as many HTTP clients. */
export const SIP2_TERMINALS = 32;
/** Seconds each kind starts loans for, per round. */
export const SIP2_SECONDS = 3;
/** Books each lender cycles through (one loan out at a time). */
const BOOKS_PER_LENDER = 4;
const TERMINAL_LOGIN = 'bench-kiosk';
const TERMINAL_PASSWORD = 'bench-kiosk-secret';

export interface Sip2Figures {
  rounds: number;
  terminals: number;
  /** Loans per second, the median of the rounds. */
  sip2PerSecond: number;
  httpPerSecond: number;
  /** SIP2's over HTTP's: the target's figure. */
  ratio: number;
}

interface Setup {
  branchId: number;
  /** Per lender: its patron's card and id, and its books' ids and barcodes. */
  sip2: { card: string; barcodes: string[] }[];
  http: { patronId: number; bookIds: number[] }[];
}

/** Makes the catalogue, serves it with SIP2, measures `rounds` rounds; stops the server, drops the catalogue. */
export async function measureSip2(
  settings: { serverUrl: string; keep: boolean; rounds: number; logDir: string },
  log: (line: string) => void,
): Promise<Sip2Figures> {
  log(`generating ${SIP2_BOOKS.toLocaleString('en')} books in bench_sip2`);
  const catalogue = await postgresCatalogue(settings.serverUrl, SIP2_BOOKS, settings.keep, 'bench_sip2');
  let server: Server | undefined;
  const terminals: Terminal[] = [];
  try {
    const sip2Port = await freePort();
    server = await startServer({
      name: 'sip2',
      args: catalogueEntry('server'),
      env: { ...catalogueEnv, ...catalogue.env, CATALOGUE_SIP2_PORT: String(sip2Port) },
      readyPath: '/health',
      logDir: settings.logDir,
    });
    // After the server's start-up has migrated the database (the terminals' table is among its migrations).
    const setup = await setUp(catalogue.env.DATABASE_URL as string);
    for (let i = 0; i < SIP2_TERMINALS; i++) terminals.push(await Terminal.open(sip2Port));
    for (const terminal of terminals) {
      const answer = await terminal.send(`9300CN${TERMINAL_LOGIN}|CO${TERMINAL_PASSWORD}|CPbench|`);
      if (answer !== '941') throw new Error(`the SIP2 login answered ${answer}`);
    }
    const url = server.url;
    // Warm-up: a second of each.
    await lendFor(1, (i) => sip2Lender(terminals[i] as Terminal, setup.sip2[i] as Setup['sip2'][number]));
    await lendFor(1, (i) => httpLender(url, setup.http[i] as Setup['http'][number], setup.branchId));
    const rates = { sip2: [] as number[], http: [] as number[] };
    for (let round = 0; round < settings.rounds; round++) {
      const order = round % 2 === 0 ? (['sip2', 'http'] as const) : (['http', 'sip2'] as const);
      for (const kind of order) {
        const rate =
          kind === 'sip2'
            ? await lendFor(SIP2_SECONDS, (i) =>
                sip2Lender(terminals[i] as Terminal, setup.sip2[i] as Setup['sip2'][number]),
              )
            : await lendFor(SIP2_SECONDS, (i) =>
                httpLender(url, setup.http[i] as Setup['http'][number], setup.branchId),
              );
        rates[kind].push(rate);
      }
      log(
        `round ${round + 1}: SIP2 ${(rates.sip2.at(-1) as number).toFixed(0)} checkouts/s, HTTP ${(rates.http.at(-1) as number).toFixed(0)} borrows/s`,
      );
    }
    const sip2PerSecond = round2(median(rates.sip2));
    const httpPerSecond = round2(median(rates.http));
    return {
      rounds: settings.rounds,
      terminals: SIP2_TERMINALS,
      sip2PerSecond,
      httpPerSecond,
      ratio: round2(sip2PerSecond / httpPerSecond),
    };
  } finally {
    for (const terminal of terminals) terminal.end();
    await server?.stop();
    await catalogue.drop();
  }
}

/**
 * Runs SIP2_TERMINALS lenders side by side, each starting loans for `seconds`; answers the loans made per
 * second of the time until the last one finished (on a busy machine a loan may outlast the window).
 */
async function lendFor(seconds: number, lender: (i: number) => () => Promise<void>): Promise<number> {
  const started = performance.now();
  const until = started + seconds * 1000;
  let loans = 0;
  await Promise.all(
    Array.from({ length: SIP2_TERMINALS }, async (_, i) => {
      const lend = lender(i);
      while (performance.now() < until) {
        await lend();
        loans += 1;
      }
    }),
  );
  return loans / ((performance.now() - started) / 1000);
}

/** One terminal's lending: the next of its copies checked out, then checked in. */
function sip2Lender(terminal: Terminal, own: Setup['sip2'][number]): () => Promise<void> {
  let next = 0;
  return async () => {
    const barcode = own.barcodes[next++ % own.barcodes.length];
    const date = '20260601    090000';
    const out = await terminal.send(`11NN${date}${' '.repeat(18)}AObench|AA${own.card}|AB${barcode}|AC|`);
    if (!out.startsWith('121')) throw new Error(`SIP2 checkout answered ${out}`);
    const back = await terminal.send(`09N${date}${date}APbench|AObench|AB${barcode}|AC|`);
    if (!back.startsWith('101')) throw new Error(`SIP2 checkin answered ${back}`);
  };
}

/** One HTTP client's lending: the next of its books borrowed for its patron, then returned. */
function httpLender(url: string, own: Setup['http'][number], branchId: number): () => Promise<void> {
  const headers = {
    accept: 'application/json',
    'content-type': 'application/json',
    authorization: `Bearer ${benchToken}`,
  };
  let next = 0;
  return async () => {
    const bookId = own.bookIds[next++ % own.bookIds.length];
    const lent = await fetch(`${url}/books/${bookId}/borrow`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ borrower_id: own.patronId, branch_id: branchId }),
    });
    const answer = await lent.text();
    const location = lent.headers.get('location');
    if (lent.status !== 201 || !location) throw new Error(`borrow answered ${lent.status}: ${answer.slice(0, 300)}`);
    const returned = await fetch(`${url}${new URL(location, url).pathname}`, {
      method: 'PATCH',
      headers,
      body: '{"status":"returned"}',
    });
    await returned.arrayBuffer();
    if (returned.status !== 200) throw new Error(`PATCH ${location} answered ${returned.status}`);
  };
}

/**
 * A patron and books with a barcoded copy each for every lender, and the terminal, acting as a librarian,
 * without error detection (its checksums would cost the terminal's side, not the catalogue's). Copies float,
 * so one returned stays on the shelf for its next lending.
 */
async function setUp(url: string): Promise<Setup> {
  const passwordHash = await hashPin(TERMINAL_PASSWORD);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await sql.begin(async (tx) => {
      const [branch] = await tx<{ id: number }[]>`select default_branch() as id`;
      const branchId = (branch as { id: number }).id;
      await tx`update loan_rules set floating = true`;
      const [librarian] = await tx<{ id: number }[]>`
        insert into users (name, role) values ('Bench SIP2 terminal', 'librarian') returning id`;
      await tx`insert into sip2_terminals (login, password_hash, institution_id, error_detection, branch_id, user_id)
        values (${TERMINAL_LOGIN}, ${passwordHash}, 'bench', false, ${branchId}, ${(librarian as { id: number }).id})`;
      const sip2: Setup['sip2'] = [];
      const http: Setup['http'] = [];
      let bookId = 0;
      for (let i = 0; i < 2 * SIP2_TERMINALS; i++) {
        const card = `BENCH-SIP2-${i}`;
        const [patron] = await tx<{ id: number }[]>`
          insert into users (name, role, card_number) values (${`Bench patron ${i}`}, 'member', ${card}) returning id`;
        const books = Array.from({ length: BOOKS_PER_LENDER }, () => ++bookId);
        for (const id of books) {
          await tx`insert into copies (book_id, branch_id, location_branch_id, item_type_id, barcode)
            values (${id}, ${branchId}, ${branchId}, default_item_type(), ${`BENCH-SIP2-COPY-${id}`})`;
        }
        if (i < SIP2_TERMINALS) sip2.push({ card, barcodes: books.map((id) => `BENCH-SIP2-COPY-${id}`) });
        else http.push({ patronId: (patron as { id: number }).id, bookIds: books });
      }
      await tx`select settle_circulation(id, 7, now()) from books where id <= ${bookId}`;
      return { branchId, sip2, http };
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** A terminal: one connection, one message at a time, each answer read up to its carriage return. */
class Terminal {
  readonly #socket: Socket;
  #buffer = '';
  #waiting: ((answer: string) => void) | undefined;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    socket.on('data', (chunk: string) => {
      this.#buffer += chunk;
      const at = this.#buffer.indexOf('\r');
      if (at < 0) return;
      const answer = this.#buffer.slice(0, at);
      this.#buffer = this.#buffer.slice(at + 1);
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting?.(answer);
    });
  }

  static open(port: number): Promise<Terminal> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1' }, () => resolve(new Terminal(socket)));
      socket.once('error', reject);
    });
  }

  send(message: string): Promise<string> {
    return new Promise((resolve) => {
      this.#waiting = resolve;
      this.#socket.write(`${message}\r`);
    });
  }

  end(): void {
    this.#socket.end();
  }
}
