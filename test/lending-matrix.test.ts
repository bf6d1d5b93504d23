/**
 * The rules matrix over HTTP: 3 patron categories × 3 item types × 2 branches, rules at several levels, and
 * for every combination the loan period, renewals and fine per day of the explain answer and of the loan
 * actually made. Then the refusals the rules make, in their own words, and the catalogue with no rules
 * added behaving as its settings say.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidateRulesQuery } from '../src/db/queries/lending-rules.js';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  linkHref,
  openTestCatalogue,
  type TestCatalogue,
} from './support/catalogue.js';
import { borrow, borrowed, placeHold, renew, renewed } from './support/circulation.js';
import { dueInDays } from './support/clock.js';
import { type BookDocument, type LoanDocument, present } from './support/documents.js';
import { expectError } from './support/errors.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

type Id = number;
/** A value of the explanation's table: the term, its value (a period's number), its unit, the rule. */
interface TermRow {
  term: string;
  value: unknown;
  unit: string | null;
  rule_id: number;
  links?: { rel: string; href: string }[];
}

/** The explanation of a lending decision, as JSON writes it. */
interface ExplanationDocument {
  data: TermRow[];
  considered: { rule_id: number; scope: string; supplied: string[]; why: string }[];
  due_at: string | null;
  refusal: string | null;
}

async function rowsOf(t: TestCatalogue, token: string, href: string): Promise<Map<string, TermRow>> {
  const response = await t.as(token).request(href);
  expect(response.status, href).toBe(200);
  const body = await json<ExplanationDocument>(response);
  return new Map((body.data as TermRow[]).map((row) => [row.term, row]));
}

async function one<T>(t: TestCatalogue, query: ReturnType<typeof sql>): Promise<T> {
  const result = await t.database.db.execute(query);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as T[];
  return rows[0] as T;
}

async function insertList(
  t: TestCatalogue,
  table: 'patron_categories' | 'item_types' | 'branches',
  code: string,
  name: string,
) {
  const row = await one<{ id: number }>(
    t,
    sql`insert into ${sql.identifier(table)} (code, name) values (${code}, ${name}) returning id`,
  );
  return row.id;
}

/** A rule with the given scope and values, inserted with SQL (the rules' own resource is not this test's). */
async function insertRule(
  t: TestCatalogue,
  scope: { category?: Id; type?: Id; branch?: Id },
  values: Record<string, number | boolean | string | string[]>,
): Promise<Id> {
  const columns = ['patron_category_id', 'item_type_id', 'branch_id', ...Object.keys(values)];
  const params = [scope.category ?? null, scope.type ?? null, scope.branch ?? null, ...Object.values(values)];
  const row = await one<{ id: number }>(
    t,
    sql`insert into loan_rules (${sql.raw(columns.map((c) => `"${c}"`).join(', '))}) values (${sql.join(
      params.map((p) => (Array.isArray(p) ? sql`${`{${p.join(',')}}`}::text[]` : sql`${p}`)),
      sql`, `,
    )}) returning id`,
  );
  return row.id;
}

/** A book whose one copy is of the item type and home branch given. */
async function bookOf(t: TestCatalogue, author: Id, title: string, type: Id, branch: Id): Promise<Id> {
  const bookId = await addBook(t, title, 2000, author);
  await t.database.db.execute(
    sql`update copies set item_type_id = ${type}, branch_id = ${branch}, location_branch_id = ${branch} where book_id = ${bookId}`,
  );
  return bookId;
}

async function memberOf(t: TestCatalogue, name: string, category: Id) {
  const member = await addUser(t, name, 'member');
  await t.database.db.execute(sql`update users set patron_category_id = ${category} where id = ${member.id}`);
  return member;
}

describe('the rules matrix: every combination, explained and lent', () => {
  let t: TestCatalogue;
  const ids = {} as Record<'adult' | 'child' | 'student' | 'book' | 'dvd' | 'magazine' | 'main' | 'east', Id>;
  const rule = {} as Record<'D' | 'A' | 'B' | 'C' | 'E' | 'F' | 'G' | 'H', Id>;

  beforeAll(async () => {
    t = await openTestCatalogue();
    ids.adult = (await one<{ id: number }>(t, sql`select id from patron_categories where code = 'adult'`)).id;
    ids.book = (await one<{ id: number }>(t, sql`select id from item_types where code = 'book'`)).id;
    ids.main = (await one<{ id: number }>(t, sql`select id from branches where code = 'main'`)).id;
    ids.child = await insertList(t, 'patron_categories', 'child', 'Child');
    ids.student = await insertList(t, 'patron_categories', 'student', 'Student');
    ids.dvd = await insertList(t, 'item_types', 'dvd', 'DVD');
    ids.magazine = await insertList(t, 'item_types', 'magazine', 'Magazine');
    ids.east = await insertList(t, 'branches', 'east', 'East branch');
    rule.D = (
      await one<{ id: number }>(
        t,
        sql`select id from loan_rules where patron_category_id is null and item_type_id is null and branch_id is null`,
      )
    ).id;
    const days = (n: number) => ({ loan_period: n, loan_period_unit: 'days' });
    rule.A = await insertRule(t, { category: ids.child }, { renewals_allowed: 1, fine_per_day: 10 });
    rule.B = await insertRule(t, { type: ids.dvd }, { ...days(7), fine_per_day: 100 });
    rule.C = await insertRule(t, { category: ids.child, type: ids.dvd }, days(3));
    rule.E = await insertRule(t, { type: ids.magazine, branch: ids.east }, { ...days(2), renewals_allowed: 0 });
    rule.F = await insertRule(t, { branch: ids.east }, { fine_per_day: 5, renewals_allowed: 3 });
    rule.G = await insertRule(
      t,
      { category: ids.student, type: ids.magazine, branch: ids.east },
      { loan_period: 48, loan_period_unit: 'hours' },
    );
    rule.H = await insertRule(t, { category: ids.student, type: ids.book, branch: ids.main }, days(28));
  });
  afterAll(() => t.close());

  // Worked by hand from the precedence (branch lending it, home branch, any; then named item type; then
  // named category): [category, item type, branch] → loan period (hours), its rule, renewals, fine per day.
  // Members borrow at the copy's home branch, so the loan branch is the copy's branch.
  type Row = [string, string, string, number, keyof typeof rule, number, number];
  const table: Row[] = [
    ['adult', 'book', 'main', 14 * 24, 'D', 2, 0],
    ['adult', 'dvd', 'main', 7 * 24, 'B', 2, 100],
    ['adult', 'magazine', 'main', 14 * 24, 'D', 2, 0],
    ['child', 'book', 'main', 14 * 24, 'D', 1, 10],
    ['child', 'dvd', 'main', 3 * 24, 'C', 1, 100],
    ['child', 'magazine', 'main', 14 * 24, 'D', 1, 10],
    ['student', 'book', 'main', 28 * 24, 'H', 2, 0],
    ['student', 'dvd', 'main', 7 * 24, 'B', 2, 100],
    ['student', 'magazine', 'main', 14 * 24, 'D', 2, 0],
    ['adult', 'book', 'east', 14 * 24, 'D', 3, 5],
    ['adult', 'dvd', 'east', 7 * 24, 'B', 3, 5],
    ['adult', 'magazine', 'east', 2 * 24, 'E', 0, 5],
    ['child', 'book', 'east', 14 * 24, 'D', 3, 5],
    ['child', 'dvd', 'east', 3 * 24, 'C', 3, 5],
    ['child', 'magazine', 'east', 2 * 24, 'E', 0, 5],
    ['student', 'book', 'east', 14 * 24, 'D', 3, 5],
    ['student', 'dvd', 'east', 7 * 24, 'B', 3, 5],
    ['student', 'magazine', 'east', 48, 'G', 0, 5],
  ];

  it('covers 3 categories × 3 item types × 2 branches', () => {
    expect(new Set(table.map((r) => r.slice(0, 3).join(' '))).size).toBe(18);
  });

  it.each(table)(
    '%s × %s × %s: %d hours (rule %s), %d renewals, fine %d',
    async (category, type, branch, hours, source, renewals, fine) => {
      const author = await addAuthor(t, `Matrix ${category} ${type} ${branch}`);
      const bookId = await bookOf(
        t,
        author,
        `${type} at ${branch} for ${category}`,
        ids[type as 'book'],
        ids[branch as 'main'],
      );
      const member = await memberOf(t, `Matrix ${category} ${type} ${branch}`, ids[category as 'adult']);

      const book = await json<BookDocument>(await t.as(member.token).request(`/books/${bookId}`));
      const explain = linkHref(book, 'explain') as string;
      expect(explain).toBe(`/books/${bookId}/explain`);
      const terms = await rowsOf(t, member.token, explain);
      const period = terms.get('loan_period') as TermRow;
      expect((period.value as number) * (period.unit === 'hours' ? 1 : 24)).toBe(hours);
      expect(period.rule_id).toBe(rule[source]);
      expect(terms.get('renewals_allowed')?.value).toBe(renewals);
      expect(terms.get('fine_per_day')?.value).toBe(fine);

      // The loan actually made: the borrow control's due date, the loan's period and the terms it keeps.
      expect(book.controls.borrow).toBeDefined();
      const loan = await borrowed(t.as(member.token), bookId);
      // Hours on from lending; days to the end of the day (the branches open every day, in UTC).
      expect(loan.due_at).toBe(
        period.unit === 'hours'
          ? new Date(Date.parse(loan.borrowed_at) + hours * HOUR_MS).toISOString()
          : dueInDays(loan.borrowed_at, period.value as number),
      );
      const explained = await json<ExplanationDocument>(await t.as(member.token).request(explain));
      expect(Math.abs(Date.parse(explained.due_at ?? '') - Date.parse(loan.due_at))).toBeLessThan(60_000);
      const kept = await rowsOf(t, member.token, linkHref(loan, 'explain') as string);
      expect(kept.get('loan_period')).toMatchObject({ value: period.value, unit: period.unit, rule_id: rule[source] });
      expect(kept.get('renewals_allowed')?.value).toBe(renewals);
      expect(kept.get('fine_per_day')?.value).toBe(fine);
      expect(kept.get('fine_per_day')?.rule_id).toBe(terms.get('fine_per_day')?.rule_id);
      // `renew` is offered exactly when the rules leave a renewal.
      expect(Boolean(loan.controls.renew)).toBe(renewals > 0);
    },
  );

  it('the explanation lists the rules considered in precedence order, with why each applies and what it supplied', async () => {
    const author = await addAuthor(t, 'Trace Author');
    const bookId = await bookOf(t, author, 'Trace DVD', ids.dvd, ids.east);
    const child = await memberOf(t, 'Trace Child', ids.child);
    const body = await json<ExplanationDocument>(await t.as(child.token).request(`/books/${bookId}/explain`));
    expect(body.considered.map((c: { rule_id: number }) => c.rule_id)).toEqual([
      rule.F,
      rule.C,
      rule.B,
      rule.A,
      rule.D,
    ]);
    expect(body.considered[0]).toMatchObject({
      scope: 'any category × any item type × branch East branch',
      supplied: ['renewals_allowed', 'fine_per_day'],
    });
    expect(present(body.considered[0], 'the first rule considered').why).toMatch(/East branch/);
    const row = present(
      body.data.find((item: TermRow) => item.term === 'loan_period'),
      'the loan period row',
    );
    expect(linkHref(row, 'loan_rule')).toBe(`/loan-rules/${rule.C}`);
    // As HTML, the terms are a table with a link to each rule.
    const page = await (
      await t.as(child.token).request(`/books/${bookId}/explain`, { headers: { Accept: 'text/html' } })
    ).text();
    expect(page).toContain('<table>');
    expect(page).toContain(`href="/loan-rules/${rule.C}"`);
    const hal = await json(
      await t.as(child.token).request(`/books/${bookId}/explain`, { headers: { Accept: 'application/hal+json' } }),
    );
    expect(JSON.stringify(hal)).toContain(`/loan-rules/${rule.C}`);
  });

  it('a librarian lends at their desk: `branch_id` names it, in the borrow and in the explanation\u2019s query', async () => {
    const author = await addAuthor(t, 'Desk Author');
    const bookId = await bookOf(t, author, 'Desk Book', ids.book, ids.main);
    const adult = await memberOf(t, 'Desk Adult', ids.adult);
    // Lent at East: the East rule's renewals (3) and fine (5), though the copy's home is Main.
    const asLibrarian = await json<ExplanationDocument>(
      await t.request(`/books/${bookId}/explain?borrower_id=${adult.id}&branch_id=${ids.east}`),
    );
    const terms = new Map((asLibrarian.data as TermRow[]).map((r) => [r.term, r]));
    expect(terms.get('renewals_allowed')).toMatchObject({ value: 3, rule_id: rule.F });
    const loan = await borrowed(t, bookId, { borrower_id: adult.id, branch_id: ids.east } as never);
    const kept = await rowsOf(t, adult.token, linkHref(loan, 'explain') as string);
    expect(kept.get('fine_per_day')).toMatchObject({ value: 5, rule_id: rule.F });
    // A member names no branch.
    const other = await addBook(t, 'Desk Other', 2001, author);
    await expectError(await borrow(t.as(adult.token), other, { branch_id: ids.east } as never), 403);
  });

  it('a rule changed later never rewrites a loan made; a renewal decides again', async () => {
    const author = await addAuthor(t, 'Change Author');
    const bookId = await bookOf(t, author, 'Changing DVD', ids.dvd, ids.main);
    const adult = await memberOf(t, 'Change Adult', ids.adult);
    const loan = await borrowed(t.as(adult.token), bookId);
    await t.database.db.execute(
      sql`update loan_rules set fine_per_day = 300, renewals_allowed = 5 where id = ${rule.B}`,
    );
    const kept = await rowsOf(t, adult.token, `/loans/${loan.id}/explain`);
    expect(kept.get('fine_per_day')?.value).toBe(100);
    const again = await renewed(t.as(adult.token), loan.id);
    expect(again.renewals).toBe(1);
    const after = await rowsOf(t, adult.token, `/loans/${loan.id}/explain`);
    expect(after.get('fine_per_day')?.value).toBe(300);
    expect(after.get('renewals_allowed')?.value).toBe(5);
    // The renewal period is the rule's now: the default rule's 14 days, from the renewal.
    const renewedLoan = await json<LoanDocument>(await t.as(adult.token).request(`/loans/${loan.id}`));
    expect(Date.parse(renewedLoan.due_at) - Date.now()).toBeGreaterThan(14 * DAY_MS - 60_000);
    await t.database.db.execute(
      sql`update loan_rules set fine_per_day = 100, renewals_allowed = null where id = ${rule.B}`,
    );
  });

  it('members see only their own explanations; the anonymous none', async () => {
    const author = await addAuthor(t, 'Private Author');
    const bookId = await bookOf(t, author, 'Private Book', ids.book, ids.main);
    const one = await memberOf(t, 'Private One', ids.adult);
    const two = await memberOf(t, 'Private Two', ids.adult);
    await expectError(await t.anonymous.request(`/books/${bookId}/explain`), 401);
    await expectError(await t.as(one.token).request(`/books/${bookId}/explain?borrower_id=${two.id}`), 403);
    await expectError(await t.as(one.token).request(`/books/${bookId}/explain?copy_id=abc`), 400);
    await expectError(await t.request(`/books/${bookId}/explain?borrower_id=999999`), 422);
    const loan = await borrowed(t.as(one.token), bookId);
    await expectError(await t.as(two.token).request(`/loans/${loan.id}/explain`), 404);
  });

  it('reads at most the 12 candidate rules of a 1,000-rule matrix through the scope index', async () => {
    await t.database.db.execute(
      sql`insert into patron_categories (code, name) select 'bulk' || n, 'Bulk ' || n from generate_series(1, 10) n`,
    );
    await t.database.db.execute(
      sql`insert into item_types (code, name) select 'bulk' || n, 'Bulk ' || n from generate_series(1, 10) n`,
    );
    await t.database.db.execute(
      sql`insert into branches (code, name) select 'bulk' || n, 'Bulk ' || n from generate_series(1, 10) n`,
    );
    await t.database.db.execute(sql`insert into loan_rules (patron_category_id, item_type_id, branch_id, fine_per_day)
      select c.id, i.id, b.id, 1 from patron_categories c, item_types i, branches b
      where c.code like 'bulk%' and i.code like 'bulk%' and b.code like 'bulk%'`);
    await t.database.db.execute(sql`analyze loan_rules`);
    const count = await one<{ n: number }>(t, sql`select count(*)::int as n from loan_rules`);
    expect(Number(count.n)).toBeGreaterThanOrEqual(1000);
    const query = candidateRulesQuery(t.database.db, {
      category: ids.child,
      item_type: ids.dvd,
      loan_branch: ids.east,
      home_branch: ids.main,
      borrower: 1,
    });
    const result = await t.database.db.execute(sql`explain ${query.getSQL()}`);
    const plan = ((Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, string>[])
      .map((row) => Object.values(row)[0])
      .join('\n');
    expect(plan, plan).toMatch(/Index Scan|Bitmap Index Scan/);
    expect(plan).toContain('loan_rules_scope_key');
    expect(plan).not.toMatch(/Seq Scan on loan_rules/);
  });
});

describe('what the rules refuse, in their words', () => {
  let t: TestCatalogue;
  let author: Id;
  const ids = {} as Record<'child' | 'dvd' | 'reference' | 'main' | 'east', Id>;
  const rule = {} as Record<'notLent' | 'dvdCap' | 'noHolds' | 'noRenewals' | 'noHoldsEast', Id>;

  beforeAll(async () => {
    t = await openTestCatalogue();
    author = await addAuthor(t, 'Refusing Author');
    ids.main = (await one<{ id: number }>(t, sql`select id from branches where code = 'main'`)).id;
    ids.child = await insertList(t, 'patron_categories', 'child', 'Child');
    ids.dvd = await insertList(t, 'item_types', 'dvd', 'DVD');
    ids.reference = await insertList(t, 'item_types', 'reference', 'Reference');
    rule.notLent = await insertRule(t, { type: ids.reference }, { lendable: false });
    rule.dvdCap = await insertRule(t, { category: ids.child, type: ids.dvd }, { max_loans: 1, holds_allowed: false });
    rule.noRenewals = await insertRule(t, { category: ids.child }, { renewals_allowed: 0 });
    ids.east = await insertList(t, 'branches', 'east', 'East branch');
    rule.noHoldsEast = await insertRule(t, { branch: ids.east }, { holds_allowed: false });
  });
  afterAll(() => t.close());

  it('a copy that is not lent: no borrow control, and the 409 names the rule', async () => {
    const bookId = await bookOf(t, author, 'Atlas', ids.reference, ids.main);
    const member = await addUser(t, 'Reference Reader');
    const book = await json<BookDocument>(await t.as(member.token).request(`/books/${bookId}`));
    expect(book.controls).not.toHaveProperty('borrow');
    const message = `an item of type Reference is not lent (rule ${rule.notLent})`;
    const body = await expectError(await borrow(t.as(member.token), bookId), 409);
    expect(body.error.message).toBe(message);
    // A librarian lending it is refused in the same words.
    expect((await expectError(await borrow(t, bookId, { borrower_id: member.id }), 409)).error.message).toBe(message);
    expect(
      (await json<ExplanationDocument>(await t.as(member.token).request(`/books/${bookId}/explain`))).refusal,
    ).toBe(message);
  });

  it('a cap per kind counts the loans of that kind only', async () => {
    const child = await memberOf(t, 'Capped Child', ids.child);
    const [dvdOne, dvdTwo] = [
      await bookOf(t, author, 'DVD One', ids.dvd, ids.main),
      await bookOf(t, author, 'DVD Two', ids.dvd, ids.main),
    ];
    const aBook = await addBook(t, 'A Plain Book', 2002, author);
    await borrowed(t.as(child.token), dvdOne);
    const message = `members of category Child may have 1 items of type DVD out at once (rule ${rule.dvdCap}): the borrower already has 1 active loans of that kind`;
    expect((await json<BookDocument>(await t.as(child.token).request(`/books/${dvdTwo}`))).controls).not.toHaveProperty(
      'borrow',
    );
    expect((await expectError(await borrow(t.as(child.token), dvdTwo), 409)).error.message).toBe(message);
    expect((await expectError(await borrow(t, dvdTwo, { borrower_id: child.id }), 409)).error.message).toBe(message);
    // A book is another kind: lent.
    await borrowed(t.as(child.token), aBook);
    // An adult is not in the rule's category.
    await borrowed(t.as((await addUser(t, 'Adult With DVDs')).token), dvdTwo);
  });

  it('holds not taken: no hold control, and the 409 names the rule', async () => {
    const bookId = await bookOf(t, author, 'Held DVD', ids.dvd, ids.main);
    await borrowed(t.as((await addUser(t, 'DVD Holder')).token), bookId);
    const child = await memberOf(t, 'Holding Child', ids.child);
    const book = await json<BookDocument>(await t.as(child.token).request(`/books/${bookId}`));
    expect(book.controls).not.toHaveProperty('hold');
    const body = await expectError(await placeHold(t.as(child.token), bookId), 409);
    expect(body.error.message).toBe(
      `book ${bookId}: holds are not taken on an item of type DVD to members of category Child (rule ${rule.dvdCap})`,
    );
    // An adult may hold it.
    expect((await placeHold(t.as((await addUser(t, 'Adult Holder')).token), bookId)).status).toBe(201);
  });

  it('holds are decided at the pickup branch, where the loan happens, not at the member\u2019s home', async () => {
    const bookId = await addBook(t, 'Collected Somewhere', 2004, author);
    await borrowed(t.as((await addUser(t, 'Collected Reader')).token), bookId);
    const message = `book ${bookId}: holds are not taken on this book at East branch (rule ${rule.noHoldsEast})`;
    const holdsOf = async () =>
      (await one<{ n: number }>(t, sql`select count(*)::int as n from holds where book_id = ${bookId}`)).n;
    // A member of Main collects at Main by default: offered and taken there, refused when naming East.
    const mainMember = await addUser(t, 'Main Holder');
    const asMain = t.as(mainMember.token);
    expect((await json<BookDocument>(await asMain.request(`/books/${bookId}`))).controls).toHaveProperty('hold');
    const atEast = await expectError(
      await asMain.send('POST', `/books/${bookId}/holds`, { pickup_branch_id: ids.east }),
      409,
    );
    expect(atEast.error.message).toBe(message);
    expect(await holdsOf()).toBe(0);
    // A member whose home is East: no control for a hold collected at home, and the same refusal…
    const eastMember = await addUser(t, 'East Holder');
    await t.database.db.execute(sql`update users set home_branch_id = ${ids.east} where id = ${eastMember.id}`);
    const asEast = t.as(eastMember.token);
    expect((await json<BookDocument>(await asEast.request(`/books/${bookId}`))).controls).not.toHaveProperty('hold');
    expect((await expectError(await placeHold(asEast, bookId), 409)).error.message).toBe(message);
    expect(await holdsOf()).toBe(0);
    // …but a hold collected at Main is taken.
    const atMain = await asEast.send('POST', `/books/${bookId}/holds`, { pickup_branch_id: ids.main });
    expect(atMain.status).toBe(201);
    const hold = await json<{ id: number; pickup_branch_id: number }>(atMain);
    expect(hold.pickup_branch_id).toBe(ids.main);
    // Moving it to East is deciding it there: refused in the same words, and it stays at Main.
    const moved = await asEast.send('PUT', `/holds/${hold.id}/pickup-branch`, { pickup_branch_id: ids.east });
    expect((await expectError(moved, 409)).error.message).toBe(message);
    expect((await json<{ pickup_branch_id: number }>(await asEast.request(`/holds/${hold.id}`))).pickup_branch_id).toBe(
      ids.main,
    );
    // A bad body is still a 400 naming the field, after the caller is known.
    const bad = await expectError(
      await asMain.send('POST', `/books/${bookId}/holds`, { pickup_branch_id: 'east' }),
      400,
    );
    expect(bad.error.code).toBeDefined();
    expect(await holdsOf()).toBe(1);
  });

  it('the hold control is absent exactly when its request would be refused, at every home and pickup branch', async () => {
    const refusal = (bookId: number) =>
      `book ${bookId}: holds are not taken on this book at East branch (rule ${rule.noHoldsEast})`;
    const branches = { main: ids.main, east: ids.east };
    for (const [home, homeId] of Object.entries(branches)) {
      // The control, and the request it describes (naming no branch): collected at the member's home.
      const member = await addUser(t, `Home ${home} Holder`);
      await t.database.db.execute(sql`update users set home_branch_id = ${homeId} where id = ${member.id}`);
      const asMember = t.as(member.token);
      const bookId = await addBook(t, `Held from ${home}`, 2005, author);
      await borrowed(t.as((await addUser(t, `Lender for ${home}`)).token), bookId);
      const offered = 'hold' in (await json<BookDocument>(await asMember.request(`/books/${bookId}`))).controls;
      expect(offered, `the hold control for a member of ${home}`).toBe(homeId !== ids.east);
      const placed = await placeHold(asMember, bookId);
      if (offered) {
        expect(placed.status).toBe(201);
        expect((await json<{ pickup_branch_id: number }>(placed)).pickup_branch_id).toBe(homeId);
      } else {
        expect((await expectError(placed, 409)).error.message).toBe(refusal(bookId));
      }
      // A request naming a pickup branch: decided by that branch's rule, whatever the member's home.
      for (const [pickup, pickupId] of Object.entries(branches)) {
        const other = await addBook(t, `Held from ${home} at ${pickup}`, 2006, author);
        await borrowed(t.as((await addUser(t, `Lender for ${home} at ${pickup}`)).token), other);
        const named = await asMember.send('POST', `/books/${other}/holds`, { pickup_branch_id: pickupId });
        if (pickupId === ids.east) expect((await expectError(named, 409)).error.message).toBe(refusal(other));
        else expect(named.status, `a hold of a member of ${home} collected at ${pickup}`).toBe(201);
      }
    }
  });

  it('renewals exhausted: no renew control, and the 409 names the rule', async () => {
    const child = await memberOf(t, 'Renewing Child', ids.child);
    const bookId = await addBook(t, 'Unrenewable', 2003, author);
    const loan = await borrowed(t.as(child.token), bookId);
    expect(loan.controls).not.toHaveProperty('renew');
    const body = await expectError(await renew(t.as(child.token), loan.id), 409);
    expect(body.error.message).toBe(
      `loan ${loan.id} has been renewed as often as a loan may be (0 times, rule ${rule.noRenewals}: category Child × any item type × any branch): return it when due`,
    );
  });
});

describe('with no rules added, the settings decide as before', () => {
  let t: TestCatalogue;

  beforeAll(async () => {
    t = await openTestCatalogue({ access: { loanDays: 7, maxRenewals: 1, maxActiveLoans: 1 } });
  });
  afterAll(() => t.close());

  it('the default rule holds the settings: loans of 7 days, renewed once for 7 days, one at a time', async () => {
    const author = await addAuthor(t, 'Settings Author');
    const [first, second] = [
      await addBook(t, 'Settled One', 1990, author),
      await addBook(t, 'Settled Two', 1991, author),
    ];
    const member = await addUser(t, 'Settled Member');
    const loan = await borrowed(t.as(member.token), first);
    expect(loan.due_at).toBe(dueInDays(loan.borrowed_at, 7));
    const terms = await rowsOf(t, member.token, `/loans/${loan.id}/explain`);
    expect(terms.get('loan_period')).toMatchObject({ value: 7, unit: 'days' });
    expect(terms.get('renewals_allowed')?.value).toBe(1);
    expect((await expectError(await borrow(t.as(member.token), second), 409)).error.message).toMatch(/1 active loans/);
    const before = Date.now();
    const again = await renewed(t.as(member.token), loan.id);
    expect([dueInDays(before, 7), dueInDays(Date.now(), 7)]).toContain(again.due_at);
    expect((await expectError(await renew(t.as(member.token), loan.id), 409)).error.message).toMatch(
      /renewed as often as a loan may be \(1 times, rule \d+\)/,
    );
    // A librarian is staff: uncapped.
    await borrowed(t, second);
    const stored = await one<{
      loan_period: number;
      renewals_allowed: number;
      max_loans: number;
      from_settings: boolean;
    }>(
      t,
      sql`select loan_period, renewals_allowed, max_loans, from_settings from loan_rules where patron_category_id is null and item_type_id is null and branch_id is null`,
    );
    expect(stored).toMatchObject({ loan_period: 7, renewals_allowed: 1, max_loans: 1, from_settings: true });
  });
});
