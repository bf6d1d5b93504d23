/**
 * A book's hold queue as its members are told it, on PGlite and (with DATABASE_URL) PostgreSQL, where the
 * holds below are placed at once over the pool: each answer tells a distinct place, the one the database
 * queued the hold at, and the queue lists in that order on every page, sorted by `position` either way.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  linkHref,
  openTestCatalogue,
  type TestCatalogue,
} from './support/catalogue.js';
import { borrow, borrowed, placeHold, returned } from './support/circulation.js';
import {
  type CollectionDocument,
  type HoldDocument,
  type LoanDocument,
  type OpenApiDocument,
  type PageDoc,
  present,
  type RootDocument,
} from './support/documents.js';

const MEMBERS = 20;

interface Told {
  id: number;
  position: number;
}

describe('a hold queue placed all at once', () => {
  let t: TestCatalogue;
  let bookId: number;
  let loanId: number;
  const told: Told[] = [];

  beforeAll(async () => {
    t = await openTestCatalogue();
    const author = await addAuthor(t, 'Queue Author');
    bookId = await addBook(t, 'Much Wanted', 2020, author);
    const lender = await addUser(t, 'First Reader');
    const loan = await borrow(t.as(lender.token), bookId);
    expect(loan.status).toBe(201);
    loanId = (await json<LoanDocument>(loan)).id;
    const members = [];
    for (let i = 1; i <= MEMBERS; i++) members.push(await addUser(t, `Waiting Member ${i}`));
    const answers = await Promise.all(members.map((m) => placeHold(t.as(m.token), bookId)));
    for (const answer of answers) {
      expect(answer.status).toBe(201);
      const hold = await json<HoldDocument>(answer);
      // A hold placed behind a loan waits: it has a position.
      told.push({ id: hold.id, position: hold.position as number });
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Every hold of the listing, following `next` links from the first page. */
  async function walk(path: string): Promise<{ id: number; position: number | null }[]> {
    const items = [];
    let href: string | undefined = path;
    while (href) {
      const response = await t.request(href);
      expect(response.status, href).toBe(200);
      const page = await json<PageDoc<HoldDocument>>(response);
      items.push(...page.data);
      href = linkHref(page, 'next');
    }
    return items;
  }

  it('every 201 tells a distinct position, 1 to 20', () => {
    expect(told.map((h) => h.position).sort((a, b) => a - b)).toEqual(Array.from({ length: MEMBERS }, (_, i) => i + 1));
  });

  it('each position told is the place the database queued the hold at', async () => {
    const queued = rowsOf<{ id: number; place: number }>(
      await t.database.db.execute(sql`select id, row_number() over (order by placed_at, id)::int as place
        from holds where book_id = ${bookId} and status = 'waiting'`),
    );
    const place = new Map(queued.map((row) => [Number(row.id), row.place]));
    expect(told.map((h) => [h.id, h.position])).toEqual(told.map((h) => [h.id, place.get(h.id)]));
  });

  it('the queue lists in queue order on every page, position 1 first', async () => {
    const inOrder = [...told].sort((a, b) => a.position - b.position);
    const listed = await walk(`/books/${bookId}/holds?per_page=7`);
    expect(listed.map((h) => [h.id, h.position])).toEqual(inOrder.map((h) => [h.id, h.position]));
  });

  it('sort=position and sort=-position are accepted, on every page', async () => {
    const inOrder = [...told].sort((a, b) => a.position - b.position).map((h) => h.id);
    expect((await walk(`/books/${bookId}/holds?sort=position&per_page=6`)).map((h) => h.id)).toEqual(inOrder);
    expect((await walk(`/books/${bookId}/holds?sort=-position&per_page=6`)).map((h) => h.id)).toEqual(
      [...inOrder].reverse(),
    );
  });

  it('the copy returned goes to position 1, and the queue moves up', async () => {
    const first = told.find((h) => h.position === 1) as Told;
    await returned(t, loanId);
    expect((await json<HoldDocument>(await t.request(`/holds/${first.id}`))).status).toBe('ready');
    const listed = await walk(`/books/${bookId}/holds?per_page=8`);
    expect(listed[0]).toMatchObject({ id: first.id, position: null });
    expect(listed.slice(1).map((h) => h.position)).toEqual(Array.from({ length: MEMBERS - 1 }, (_, i) => i + 1));
  });

  it('the listing declares position sortable', async () => {
    const root = await json<RootDocument>(await t.anonymous.request('/'));
    const doc = await json<OpenApiDocument>(await t.anonymous.request(linkHref(root, 'service-desc') as string));
    const sort = present(
      doc.paths['/books/{id}/holds']?.get?.parameters?.find((p: { name: string }) => p.name === 'sort'),
      'the sort parameter',
    );
    expect(sort.description).toContain('position');
    expect(new RegExp(present(sort.schema?.pattern, 'its pattern')).test('-position')).toBe(true);
  });
});

describe('a queue whose holds were not numbered in its order', () => {
  let t: TestCatalogue;
  beforeAll(async () => {
    t = await openTestCatalogue();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists in queue order all the same, and a user’s holds sort by position', async () => {
    const author = await addAuthor(t, 'Older Queue Author');
    const bookId = await addBook(t, 'Long Awaited', 2019, author);
    const lender = await addUser(t, 'Older Reader');
    await borrowed(t.as(lender.token), bookId);
    const ids: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const member = await addUser(t, `Older Member ${i}`);
      const placed = await placeHold(t.as(member.token), bookId);
      expect(placed.status).toBe(201);
      ids.push((await json<HoldDocument>(placed)).id);
    }
    // As holds placed at once could be stamped before: the last numbered is first in the queue.
    await t.database.db.execute(
      sql`update holds set placed_at = placed_at - make_interval(secs => id * 10) where book_id = ${bookId}`,
    );
    const listed = await json<CollectionDocument<HoldDocument>>(await t.request(`/books/${bookId}/holds`));
    expect(listed.map((h) => [h.id, h.position])).toEqual([
      [ids[2], 1],
      [ids[1], 2],
      [ids[0], 3],
    ]);
    const byPosition = await t.request(`/users/${lender.id}/holds?sort=-position`);
    expect(byPosition.status).toBe(200);
  });
});
