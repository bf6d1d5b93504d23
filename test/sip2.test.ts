/**
 * The SIP2 listener over a real TCP socket, on PGlite and (with DATABASE_URL) PostgreSQL, on a fixed business
 * clock in UTC: frames written here by hand after the SIP2 2.00 specification's examples (the checksum by the
 * test's own function), every fixed field of the answers checked at its position. Lending, returning and
 * renewing go through the desk's circulation: the same refusals as HTTP, the same loans seen over HTTP.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config.js';
import { rowsOf } from '../src/db/client.js';
import { storePin } from '../src/db/queries/pins.js';
import { insertTerminal } from '../src/db/queries/sip2.js';
import { hashPin } from '../src/domain/pin.js';
import { createLogger } from '../src/log.js';
import { type Sip2Listener, startSip2Listener } from '../src/protocols/sip2/index.js';
import { addAuthor, addBook, addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { DAY_MS, fixedClock } from './support/clock.js';
import { checksumHolds, checksummed, fieldOf, fieldsOf, sip2Checksum, TestTerminal } from './support/sip2.js';

const START = '2026-06-01T09:00:00.000Z';
/** START as SIP2 writes it in UTC. */
const START_SIP2 = '20260601    090000';

describe('the SIP2 listener', () => {
  const clock = fixedClock(START);
  let t: TestCatalogue;
  let listener: Sip2Listener;
  let author: number;
  const branch = { main: 0, east: 0 };
  let referenceType: number;
  let finedType: number;
  let barcodes = 0;
  const terminals: TestTerminal[] = [];

  const one = async <T>(query: ReturnType<typeof sql>): Promise<T> =>
    rowsOf<T>(await t.database.db.execute(query))[0] as T;

  async function patron(name: string, card: string, pin: string, home = branch.main) {
    const user = await addUser(t, name, 'member');
    await t.database.db.execute(
      sql`update users set card_number = ${card}, home_branch_id = ${home} where id = ${user.id}`,
    );
    await storePin(t.database.db, { userId: user.id, pinHash: await hashPin(pin) });
    return user;
  }

  async function barcodedBook(title: string, itemType?: number) {
    barcodes += 1;
    const barcode = `3100000${String(barcodes).padStart(5, '0')}`;
    const bookId = await addBook(t, title, 2001, author);
    const copy = await one<{ id: number }>(
      sql`update copies set barcode = ${barcode}, item_type_id = coalesce(${itemType ?? null}::integer, item_type_id)
          where book_id = ${bookId} returning id`,
    );
    return { bookId, copyId: copy.id, barcode };
  }

  async function open(port = listener.port): Promise<TestTerminal> {
    const terminal = await TestTerminal.open(port);
    terminals.push(terminal);
    return terminal;
  }

  /** A terminal signed in as kiosk1 (error detection on, UTF-8), its sequence numbers counted from 1. */
  async function kiosk(): Promise<{ terminal: TestTerminal; send: (frame: string) => Promise<string> }> {
    const terminal = await open();
    let sequence = 0;
    const send = async (frame: string) => {
      sequence = (sequence + 1) % 10;
      const answer = await terminal.sendBytes(checksummed(`${frame}AY${sequence}AZ`));
      expect(checksumHolds(answer), answer.toString()).toBe(true);
      const text = answer.toString('utf8');
      expect(text).toMatch(new RegExp(`AY${sequence}AZ[0-9A-F]{4}$`));
      return text;
    };
    expect(await send('9300CNkiosk1|COkiosk-secret|CPMain|')).toMatch(/^941/);
    return { terminal, send };
  }

  const loanCount = async () => Number((await one<{ n: number }>(sql`select count(*)::int as n from loans`)).n);

  beforeAll(async () => {
    t = await openTestCatalogue({ clock });
    author = await addAuthor(t, 'SIP Author');
    branch.main = (await one<{ id: number }>(sql`select id from branches where code = 'main'`)).id;
    branch.east = (
      await one<{ id: number }>(sql`insert into branches (code, name) values ('east', 'East branch') returning id`)
    ).id;
    referenceType = (
      await one<{ id: number }>(sql`insert into item_types (code, name) values ('ref', 'Reference') returning id`)
    ).id;
    await t.database.db.execute(sql`insert into loan_rules (item_type_id, lendable) values (${referenceType}, false)`);
    finedType = (
      await one<{ id: number }>(sql`insert into item_types (code, name) values ('fined', 'Fined') returning id`)
    ).id;
    await t.database.db.execute(
      sql`insert into loan_rules (item_type_id, fine_per_day, grace_days, fine_cap) values (${finedType}, 25, 0, 1000)`,
    );
    const librarian = await addUser(t, 'Kiosk Librarian', 'librarian');
    await t.database.db.execute(sql`update users set home_branch_id = ${branch.main} where id = ${librarian.id}`);
    await insertTerminal(t.database.db, {
      login: 'kiosk1',
      passwordHash: await hashPin('kiosk-secret'),
      institutionId: 'Main Library',
      errorDetection: true,
      charset: 'utf-8',
      branchId: branch.main,
      userId: librarian.id,
    });
    await insertTerminal(t.database.db, {
      login: 'kiosk-east',
      passwordHash: await hashPin('east-secret'),
      institutionId: 'Main Library',
      errorDetection: false,
      charset: 'utf-8',
      branchId: branch.east,
      userId: librarian.id,
    });
    await insertTerminal(t.database.db, {
      login: 'sorter',
      passwordHash: await hashPin('sorter-secret'),
      institutionId: 'Main Library',
      errorDetection: false,
      charset: 'iso-8859-1',
      branchId: branch.main,
      userId: librarian.id,
    });
    await patron('Ada Reader', 'CARD-ADA', '1234');
    listener = await startSip2Listener({
      database: t.database,
      clock,
      access: defaultConfig.access,
      currency: 'EUR',
      timeZone: 'UTC',
      pins: defaultConfig.pins,
      log: createLogger({ enabled: false }),
      port: 0,
      host: '127.0.0.1',
      idleSeconds: 60,
    });
  });
  afterAll(async () => {
    for (const terminal of terminals) terminal.end();
    await listener?.close();
    await t?.close();
  });

  describe('status and login', () => {
    it('answers the specification\u2019s SC status example with 98, every fixed field in place', async () => {
      const terminal = await open();
      // The SIP2 2.00 specification's example of an SC Status message, checksum included.
      const bytes = await terminal.sendBytes('9900302.00AY1AZFCA5');
      expect(checksumHolds(bytes)).toBe(true);
      const answer = bytes.toString();
      expect(answer.slice(0, 2)).toBe('98');
      expect(answer[2]).toBe('N'); // on-line status: not signed in yet
      expect(answer[3]).toBe('N'); // checkin ok
      expect(answer[4]).toBe('N'); // checkout ok
      expect(answer[5]).toBe('Y'); // ACS renewal policy
      expect(answer[6]).toBe('N'); // status update ok
      expect(answer[7]).toBe('N'); // off-line ok
      expect(answer.slice(8, 11)).toBe('030'); // timeout period
      expect(answer.slice(11, 14)).toBe('003'); // retries allowed
      expect(answer.slice(14, 32)).toBe(START_SIP2); // date / time sync
      expect(answer.slice(32, 36)).toBe('2.00'); // protocol version
      // patron status, checkout, checkin, block patron (no), SC/ACS status, resend, login, patron information,
      // end patron session, fee paid (no), item information, item status update (no), patron enable (no),
      // hold (no), renew, renew all (no).
      expect(fieldOf(answer, 36, 'BX')).toBe('YYYNYYYYYNYNNNYN');
      expect(fieldOf(answer, 36, 'AM')).toBe('catalogue');
      expect(answer).toMatch(/\|AY1AZ[0-9A-F]{4}$/);
    });

    it('writes dates in the library\u2019s time zone', async () => {
      const paris = await startSip2Listener({
        database: t.database,
        clock,
        access: defaultConfig.access,
        currency: 'EUR',
        timeZone: 'Europe/Paris',
        pins: defaultConfig.pins,
        log: createLogger({ enabled: false }),
        port: 0,
        host: '127.0.0.1',
        idleSeconds: 60,
      });
      try {
        const terminal = await open(paris.port);
        // 09:00 UTC on 1 June is 11:00 in Paris (summer time).
        expect((await terminal.sendBytes('9900302.00')).toString().slice(14, 32)).toBe('20260601    110000');
      } finally {
        await paris.close();
      }
    });

    it('refuses a login that names no terminal or has the wrong password, and accepts the right one', async () => {
      const terminal = await open();
      expect((await terminal.sendBytes(checksummed('9300CNnobody|COkiosk-secret|CPMain|AY1AZ'))).toString()).toMatch(
        /^940AY1AZ[0-9A-F]{4}$/,
      );
      expect((await terminal.sendBytes(checksummed('9300CNkiosk1|COwrong|CPMain|AY2AZ'))).toString()).toMatch(
        /^940AY2AZ[0-9A-F]{4}$/,
      );
      const ok = await terminal.sendBytes(checksummed('9300CNkiosk1|COkiosk-secret|CPMain|AY3AZ'));
      expect(ok.toString()).toMatch(/^941AY3AZ[0-9A-F]{4}$/);
      expect(checksumHolds(ok)).toBe(true);
      const status = (await terminal.sendBytes(checksummed('9900302.00AY4AZ'))).toString();
      expect(status.slice(2, 5)).toBe('YYY'); // on-line, checkin ok, checkout ok
      expect(fieldOf(status, 36, 'AO')).toBe('Main Library');
    });

    it('refuses every transaction before a login, with a screen message, changing nothing', async () => {
      const terminal = await open();
      const { barcode } = await barcodedBook('Before Login');
      const before = await loanCount();
      const answer = (
        await terminal.sendBytes(
          checksummed(`11YN${START_SIP2}                  AOMain Library|AACARD-ADA|AB${barcode}|AC|AY1AZ`),
        )
      ).toString();
      expect(answer.slice(0, 3)).toBe('120');
      expect(fieldOf(answer, 24, 'AF')).toBe('this terminal has not signed in: send a 93 login first');
      expect(await loanCount()).toBe(before);
    });
  });

  describe('patrons', () => {
    it('patron status: the patron\u2019s name, a valid card and PIN, the balance, every fixed field in place', async () => {
      const { send } = await kiosk();
      // After the specification's example: language 001, a transaction date, AO AA AC AD.
      const answer = await send(`23001${START_SIP2}AOMain Library|AACARD-ADA|AC|AD1234|`);
      expect(answer.slice(0, 2)).toBe('24');
      expect(answer.slice(2, 16)).toBe('              '); // patron status: no privilege denied
      expect(answer.slice(16, 19)).toBe('000'); // language
      expect(answer.slice(19, 37)).toBe(START_SIP2);
      const fields = fieldsOf(answer, 37);
      expect(fields.get('AO')).toEqual(['Main Library']);
      expect(fields.get('AA')).toEqual(['CARD-ADA']);
      expect(fields.get('AE')).toEqual(['Ada Reader']);
      expect(fields.get('BL')).toEqual(['Y']);
      expect(fields.get('CQ')).toEqual(['Y']);
      expect(fields.get('BH')).toEqual(['EUR']);
      expect(fields.get('BV')).toEqual(['0.00']);

      const wrongPin = await send(`23001${START_SIP2}AOMain Library|AACARD-ADA|AC|AD9999|`);
      expect(fieldOf(wrongPin, 37, 'CQ')).toBe('N');
      const unknown = await send(`23001${START_SIP2}AOMain Library|AANO-SUCH-CARD|AC|AD|`);
      expect(unknown.slice(2, 16)).toBe('YY Y          ');
      expect(fieldOf(unknown, 37, 'BL')).toBe('N');
      expect(fieldOf(unknown, 37, 'AF')).toBe('card_number names no user');
    });

    it('a patron over the fine limit: charge and renewal denied and excessive fines, the policy\u2019s reason', async () => {
      const owing = await patron('Owen Owing', 'CARD-OWEN', '4321');
      await t.database.db.execute(
        sql`insert into account_entries (user_id, kind, amount, currency, reason) values (${owing.id}, 'manual', 2000, 'EUR', 'lost book')`,
      );
      const { send } = await kiosk();
      const status = await send(`23001${START_SIP2}AOMain Library|AACARD-OWEN|AC|`);
      expect(status.slice(2, 16)).toBe('YY        Y   ');
      expect(fieldOf(status, 37, 'BV')).toBe('20.00');
      const reason = 'not while the balance €20.00 is over the limit of €10.00: pay or have charges waived first';
      expect(fieldOf(status, 37, 'AF')).toBe(reason);

      const { barcode } = await barcodedBook('Blocked By Fines');
      const before = await loanCount();
      const refused = await send(
        `11YN${START_SIP2}                  AOMain Library|AACARD-OWEN|AB${barcode}|AC|AD4321|`,
      );
      expect(refused[2]).toBe('0'); // ok
      expect(refused[3]).toBe('N'); // renewal ok
      expect(refused[4]).toBe('U'); // magnetic media
      expect(refused[5]).toBe('N'); // desensitize
      expect(refused.slice(6, 24)).toBe(START_SIP2);
      expect(fieldOf(refused, 24, 'AF')).toBe(reason);
      expect(fieldOf(refused, 24, 'AJ')).toBe('Blocked By Fines');
      expect(await loanCount()).toBe(before);
      // The desk over HTTP refuses it in the same words.
      const http = await t.send('POST', '/desk/checkouts', { card_number: 'CARD-OWEN', barcode });
      expect(http.status).toBe(409);
      expect((await json<{ error: { message: string } }>(http)).error.message).toBe(reason);
    });
  });

  describe('circulation', () => {
    it('checkout lends the copy at the terminal\u2019s branch, as the desk does, and HTTP sees the loan', async () => {
      const { bookId, copyId, barcode } = await barcodedBook('Lent By Kiosk');
      const { send } = await kiosk();
      const answer = await send(`11YN${START_SIP2}                  AOMain Library|AACARD-ADA|AB${barcode}|AC|AD1234|`);
      expect(answer.slice(0, 2)).toBe('12');
      expect(answer[2]).toBe('1'); // ok
      expect(answer[3]).toBe('N'); // renewal ok: a new loan
      expect(answer[4]).toBe('U'); // magnetic media: unknown
      expect(answer[5]).toBe('Y'); // desensitize
      expect(answer.slice(6, 24)).toBe(START_SIP2);
      const fields = fieldsOf(answer, 24);
      expect(fields.get('AO')).toEqual(['Main Library']);
      expect(fields.get('AA')).toEqual(['CARD-ADA']);
      expect(fields.get('AB')).toEqual([barcode]);
      expect(fields.get('AJ')).toEqual(['Lent By Kiosk']);
      const loan = await one<{ id: number; branch_id: number; due_at: Date | string }>(
        sql`select id, branch_id, due_at from loans where copy_id = ${copyId} and returned_at is null`,
      );
      expect(loan.branch_id).toBe(branch.main);
      // Due at the end of the fourteenth day, in UTC.
      expect(fields.get('AH')).toEqual(['20260615    235959']);
      // Over HTTP: the loan, and the desk's count of the patron's loans.
      const http = await json<{ book_id: number; status: string }>(await t.request(`/loans/${loan.id}`));
      expect(http).toMatchObject({ book_id: bookId, status: 'active' });
      const desk = await json<{ patron: { loans_out: number } }>(await t.request('/desk?card_number=CARD-ADA'));
      expect(desk.patron.loans_out).toBeGreaterThanOrEqual(1);

      // Item information: charged, due back then.
      const item = await send(`17${START_SIP2}AOMain Library|AB${barcode}|`);
      expect(item.slice(0, 2)).toBe('18');
      expect(item.slice(2, 4)).toBe('04'); // circulation status: charged
      expect(item.slice(4, 6)).toBe('00'); // security marker
      expect(item.slice(6, 8)).toBe('01'); // fee type
      expect(item.slice(8, 26)).toBe(START_SIP2);
      expect(fieldOf(item, 26, 'AH')).toBe('20260615    235959');
      expect(fieldOf(item, 26, 'AJ')).toBe('Lent By Kiosk');
      expect(fieldOf(item, 26, 'AQ')).toBe('Main library');
      expect(fieldOf(item, 26, 'CF')).toBe('0000');

      // Patron information, charged items asked for: the loan counted and listed.
      const info = await send(`63001${START_SIP2}  Y       AOMain Library|AACARD-ADA|AD1234|`);
      expect(info.slice(0, 2)).toBe('64');
      expect(info.slice(2, 16)).toBe('              ');
      expect(info.slice(16, 19)).toBe('000');
      expect(info.slice(19, 37)).toBe(START_SIP2);
      expect(info.slice(37, 41)).toBe('0000'); // hold items
      expect(info.slice(41, 45)).toBe('0000'); // overdue items
      const charged = Number(info.slice(45, 49));
      expect(charged).toBe(desk.patron.loans_out); // charged items
      expect(info.slice(49, 53)).toBe('0000'); // fine items
      expect(info.slice(53, 57)).toBe('0000'); // recall items
      expect(info.slice(57, 61)).toBe('0000'); // unavailable holds
      const infoFields = fieldsOf(info, 61);
      expect(infoFields.get('AE')).toEqual(['Ada Reader']);
      expect(infoFields.get('AU')).toContain(barcode);
      expect(infoFields.get('CQ')).toEqual(['Y']);

      // Renewal two days on: due fourteen days from then.
      clock.advance(2 * DAY_MS);
      try {
        const renewed = await send(
          `29NN20260603    090000                  AOMain Library|AACARD-ADA|AD1234|AB${barcode}|`,
        );
        expect(renewed.slice(0, 2)).toBe('30');
        expect(renewed[2]).toBe('1'); // ok
        expect(renewed[3]).toBe('Y'); // renewal ok
        expect(renewed[4]).toBe('U');
        expect(renewed[5]).toBe('U');
        expect(renewed.slice(6, 24)).toBe('20260603    090000');
        expect(fieldOf(renewed, 24, 'AH')).toBe('20260617    235959');
        expect(fieldOf(renewed, 24, 'AJ')).toBe('Lent By Kiosk');
        const { renewals } = await one<{ renewals: number }>(sql`select renewals from loans where id = ${loan.id}`);
        expect(renewals).toBe(1);
      } finally {
        clock.set(START);
      }
    });

    it('checkout refused by the lending rules: not ok, the rule\u2019s reason, as HTTP says it', async () => {
      const { barcode } = await barcodedBook('Reference Only', referenceType);
      const { send } = await kiosk();
      const before = await loanCount();
      const answer = await send(`11YN${START_SIP2}                  AOMain Library|AACARD-ADA|AB${barcode}|AC|`);
      expect(answer.slice(2, 6)).toBe('0NUN');
      const reason = fieldOf(answer, 24, 'AF');
      expect(reason).toBeTruthy();
      expect(fieldOf(answer, 24, 'AH')).toBe('');
      expect(await loanCount()).toBe(before);
      const http = await t.send('POST', '/desk/checkouts', { card_number: 'CARD-ADA', barcode });
      expect(http.status).toBe(409);
      expect((await json<{ error: { message: string } }>(http)).error.message).toBe(reason);

      const wrongPin = await send(
        `11YN${START_SIP2}                  AOMain Library|AACARD-ADA|AB${barcode}|AC|AD0000|`,
      );
      expect(fieldOf(wrongPin, 24, 'AF')).toBe('that library card and PIN do not match');
      const noSuch = await send(`11YN${START_SIP2}                  AOMain Library|AACARD-ADA|ABNO-SUCH|AC|`);
      expect(fieldOf(noSuch, 24, 'AF')).toBe('barcode names no copy');
      expect(await loanCount()).toBe(before);
    });

    it('checkin of a copy someone at another branch holds: in transit there, for them, with the alert', async () => {
      const { bookId, barcode } = await barcodedBook('Wanted At East');
      await patron('Eve East', 'CARD-EVE', '5555', branch.east);
      const eve = await one<{ id: number }>(sql`select id from users where card_number = 'CARD-EVE'`);
      const { send } = await kiosk();
      expect((await send(`11YN${START_SIP2}                  AOMain Library|AACARD-ADA|AB${barcode}|AC|`))[2]).toBe(
        '1',
      );
      const token = (await t.send('POST', `/users/${eve.id}/tokens`, { name: 'eve' })).json() as Promise<{
        token: string;
      }>;
      const hold = await t.as((await token).token).request(`/books/${bookId}/holds`, { method: 'POST' });
      expect(hold.status).toBe(201);

      const answer = await send(`09N${START_SIP2}${START_SIP2}APMain|AOMain Library|AB${barcode}|AC|`);
      expect(answer.slice(0, 2)).toBe('10');
      expect(answer[2]).toBe('1'); // ok
      expect(answer[3]).toBe('Y'); // resensitize
      expect(answer[4]).toBe('U'); // magnetic media
      expect(answer[5]).toBe('Y'); // alert
      expect(answer.slice(6, 24)).toBe(START_SIP2);
      const fields = fieldsOf(answer, 24);
      expect(fields.get('AB')).toEqual([barcode]);
      expect(fields.get('AQ')).toEqual(['Main library']);
      expect(fields.get('AJ')).toEqual(['Wanted At East']);
      expect(fields.get('CT')).toEqual(['East branch']);
      expect(fields.get('CV')).toEqual(['02']); // hold for another branch
      expect(fields.get('CY')).toEqual(['CARD-EVE']);
      expect(fields.get('DA')).toEqual(['Eve East']);
      expect(fields.get('AF')).toEqual(['In transit to East branch for Eve East']);

      // Scanned again before it left, the desk's check-in says to send it on: the same answer, nothing changed.
      const again = await send(`09N${START_SIP2}${START_SIP2}APMain|AOMain Library|AB${barcode}|AC|`);
      expect(again.slice(0, 6)).toBe('101YUY');
      expect(again.slice(6, 24)).toBe(START_SIP2);
      const sentOn = fieldsOf(again, 24);
      expect(sentOn.get('AB')).toEqual([barcode]);
      expect(sentOn.get('AJ')).toEqual(['Wanted At East']);
      expect(sentOn.get('CT')).toEqual(['East branch']);
      expect(sentOn.get('CV')).toEqual(['02']); // hold for another branch
      expect(sentOn.get('CY')).toEqual(['CARD-EVE']);
      expect(sentOn.get('DA')).toEqual(['Eve East']);
      expect(sentOn.get('AF')).toEqual(['Not for this branch, send it on: In transit to East branch for Eve East']);
      const desk = await t.send('POST', '/desk/checkins', { barcode, branch_id: branch.main });
      expect(desk.status).toBe(200);
      expect((await json<{ placement: string }>(desk)).placement).toBe(sentOn.get('AF')?.[0]);
      const moved = await one<{ location: number; going: number }>(
        sql`select location_branch_id as location, transit_to_branch_id as going from copies where barcode = ${barcode}`,
      );
      expect(moved).toEqual({ location: branch.main, going: branch.east });

      // At East, where it was going, the sorter's checkin receives it: on the hold shelf there for Eve.
      const east = await open();
      expect((await east.sendBytes('9300CNkiosk-east|COeast-secret|CPEast|')).toString()).toBe('941');
      const received = (
        await east.sendBytes(`09N${START_SIP2}${START_SIP2}APEast|AOMain Library|AB${barcode}|AC|`)
      ).toString();
      expect(received.slice(0, 6)).toBe('101YUY');
      expect(fieldOf(received, 24, 'CT')).toBe('East branch');
      expect(fieldOf(received, 24, 'CV')).toBe('01'); // hold for this library
      expect(fieldOf(received, 24, 'CY')).toBe('CARD-EVE');
      expect(fieldOf(received, 24, 'AF')).toBe('Received: Hold shelf at East branch for Eve East');
      const { status } = await one<{ status: string }>(sql`select status from holds where borrower_id = ${eve.id}`);
      expect(status).toBe('ready');
    });

    it('renewal refused while someone waits for the book: not ok, the policy\u2019s reason, as HTTP says it', async () => {
      const { bookId, barcode } = await barcodedBook('Waited For');
      const { send } = await kiosk();
      expect((await send(`11YN${START_SIP2}                  AOMain Library|AACARD-ADA|AB${barcode}|AC|`))[2]).toBe(
        '1',
      );
      const waiter = await patron('Walt Waiting', 'CARD-WALT', '1357');
      expect((await t.as(waiter.token).request(`/books/${bookId}/holds`, { method: 'POST' })).status).toBe(201);
      const answer = await send(`29NN${START_SIP2}                  AOMain Library|AACARD-ADA|AB${barcode}|`);
      expect(answer.slice(0, 2)).toBe('30');
      expect(answer.slice(2, 6)).toBe('0NUU');
      expect(answer.slice(6, 24)).toBe(START_SIP2);
      expect(fieldOf(answer, 24, 'AH')).toBe('');
      const reason = fieldOf(answer, 24, 'AF');
      expect(reason).toBe(`someone is waiting for book ${bookId}: the loan cannot be renewed; return it when due`);
      const loan = await one<{ id: number }>(
        sql`select id from loans where book_id = ${bookId} and returned_at is null`,
      );
      const http = await t.request(`/loans/${loan.id}/renewals`, { method: 'POST' });
      expect(http.status).toBe(409);
      expect((await json<{ error: { message: string } }>(http)).error.message).toBe(reason);
      // Another card cannot renew it at all.
      const notTheirs = await send(`29NN${START_SIP2}                  AOMain Library|AACARD-WALT|AB${barcode}|`);
      expect(fieldOf(notTheirs, 24, 'AF')).toMatch(/is not on loan to this card$/);
    });

    it('checkin of a late copy charges the fine, and says so', async () => {
      const { barcode } = await barcodedBook('Returned Late', finedType);
      const { send } = await kiosk();
      expect((await send(`11YN${START_SIP2}                  AOMain Library|AACARD-ADA|AB${barcode}|AC|`))[2]).toBe(
        '1',
      );
      clock.advance(16 * DAY_MS);
      try {
        const answer = await send(`09N20260617    090000${START_SIP2}APMain|AOMain Library|AB${barcode}|AC|`);
        expect(answer.slice(2, 6)).toBe('1YUN');
        expect(fieldOf(answer, 24, 'AF')).toBe('Shelf at Main library; fine charged: €0.50');
      } finally {
        clock.set(START);
      }
    });

    it('end session answers Y with the date', async () => {
      const { send } = await kiosk();
      const answer = await send(`35${START_SIP2}AOMain Library|AACARD-ADA|`);
      expect(answer.slice(0, 3)).toBe('36Y');
      expect(answer.slice(3, 21)).toBe(START_SIP2);
      expect(fieldOf(answer, 21, 'AA')).toBe('CARD-ADA');
    });
  });

  describe('PINs', () => {
    it('wrong PINs sent by a terminal count towards the card\u2019s lockout, which card sign-in shares', async () => {
      await patron('Lou Locked', 'CARD-LOU', '8642');
      const { barcode } = await barcodedBook('Locked Out');
      const { send } = await kiosk();
      const before = await loanCount();
      for (let i = 0; i < defaultConfig.pins.attempts; i++) {
        const wrong = await send(
          `11YN${START_SIP2}                  AOMain Library|AACARD-LOU|AB${barcode}|AC|AD0000|`,
        );
        expect(fieldOf(wrong, 24, 'AF')).toBe('that library card and PIN do not match');
      }
      const locked = `too many wrong PINs: this library card is locked for ${defaultConfig.pins.lockoutMinutes} more minutes; ask at the desk to reset the PIN`;
      const right = await send(`11YN${START_SIP2}                  AOMain Library|AACARD-LOU|AB${barcode}|AC|AD8642|`);
      expect(right[2]).toBe('0');
      expect(fieldOf(right, 24, 'AF')).toBe(locked);
      expect(await loanCount()).toBe(before);
      // Card sign-in over HTTP finds the card locked by the terminal's tries.
      const signIn = await t.anonymous.send(
        'POST',
        '/session',
        { card_number: 'CARD-LOU', pin: '8642' },
        { 'Sec-Fetch-Site': 'same-origin' },
      );
      expect(signIn.status).toBe(429);
      expect((await json<{ error: { message: string } }>(signIn)).error.message).toBe(locked);
    });
  });

  describe('error detection, resending and what cannot be read', () => {
    it('97 resends the last answer byte for byte; a wrong checksum is answered 96', async () => {
      const { terminal, send } = await kiosk();
      const status = await send('9900302.00');
      const resent = await terminal.sendBytes('97');
      expect(resent.toString()).toBe(status);
      // The specification's example with its checksum spoilt.
      const corrupt = await terminal.sendBytes('9900302.00AY1AZFCA6');
      expect(corrupt.toString()).toBe(`96AZ${sip2Checksum(Buffer.from('96AZ'))}`);
      // With error detection on, a message without a checksum is asked for again too.
      expect((await terminal.sendBytes('9900302.00')).toString()).toMatch(/^96AZ/);
    });

    it('garbage, unknown messages and a line too long are answered 96; five in a row close the connection', async () => {
      const terminal = await open();
      expect((await terminal.sendBytes('hello, world')).toString()).toBe('96');
      expect((await terminal.sendBytes('37N')).toString()).toBe('96');
      expect((await terminal.sendBytes('11YN2026')).toString()).toBe('96'); // shorter than its fixed fields
      expect((await terminal.sendBytes(`99${'x'.repeat(10_000)}`)).toString()).toBe('96');
      expect((await terminal.sendBytes('9900302.00')).toString()).toMatch(/^98N/);
      const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x7c]).toString('latin1');
      for (let i = 0; i < 5; i++) expect((await terminal.sendBytes(bytes, 'latin1')).toString()).toBe('96');
      await terminal.closed;
    });

    it('a terminal without error detection, in ISO-8859-1: no AY or AZ, its names in its bytes', async () => {
      await patron('Zoë Ünder', 'CARD-ZOE', '2468');
      const terminal = await open();
      expect((await terminal.sendBytes('9300CNsorter|COsorter-secret|CPMain|', 'latin1')).toString()).toBe('941');
      const bytes = await terminal.sendBytes(`23001${START_SIP2}AOMain Library|AACARD-ZOE|AC|`, 'latin1');
      const answer = bytes.toString('latin1');
      expect(answer.slice(0, 2)).toBe('24');
      expect(fieldOf(answer, 37, 'AE')).toBe('Zoë Ünder');
      expect(bytes.includes(Buffer.from([0xeb]))).toBe(true); // ë in ISO-8859-1
      expect(answer).not.toMatch(/AZ[0-9A-F]{4}$/);
    });

    it('closes a terminal that falls silent', async () => {
      const quiet = await startSip2Listener({
        database: t.database,
        clock,
        access: defaultConfig.access,
        currency: 'EUR',
        timeZone: 'UTC',
        pins: defaultConfig.pins,
        log: createLogger({ enabled: false }),
        port: 0,
        host: '127.0.0.1',
        idleSeconds: 1,
      });
      try {
        const terminal = await open(quiet.port);
        terminal.write('9900'); // half a message, then nothing
        await terminal.closed;
      } finally {
        await quiet.close();
      }
    });

    it('500 terminals at once each get their status', async () => {
      const many = await Promise.all(Array.from({ length: 500 }, () => TestTerminal.open(listener.port)));
      try {
        const answers = await Promise.all(many.map((terminal) => terminal.sendBytes('9900302.00AY1AZFCA5')));
        expect(answers.every((answer) => answer.toString().startsWith('98') && checksumHolds(answer))).toBe(true);
      } finally {
        for (const terminal of many) terminal.end();
      }
    });
  });
});
