/**
 * Ketting, the generic hypermedia client, against the server as its own process (fresh database, the
 * sample catalogue): it reads HAL `_links` and `_embedded`, `Link` headers and HAL-FORMS `_templates`
 * and knows nothing else of the catalogue. Every step follows a rel or submits a template by name.
 */
import { bearerAuth, Ketting, type State } from 'ketting';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkHeader } from './support/documents.js';
import { ADMIN_TOKEN, type RunningServer, startServer } from './support/server.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
}, 120_000);
afterAll(() => server?.stop());

/** A client as this bearer, or anonymous. */
function client(token?: string): Ketting {
  const ketting = new Ketting(server.url);
  if (token) ketting.use(bearerAuth(token));
  return ketting;
}

/** The `Location` of a 201 answer, as an absolute URL. */
function location(state: State): string {
  const value = state.headers.get('location');
  expect(value, 'Location').toBeTruthy();
  return new URL(value as string, server.url).href;
}

describe('Ketting, anonymous', () => {
  it('follows books from the root, next through every page, item to a book and author to its author', async () => {
    const ketting = client();
    const root = await ketting.go().get();
    expect(root.links.has('books')).toBe(true);

    let page = await ketting.go().follow('books');
    let state = await page.get();
    const total = state.data.meta.total_items as number;
    expect(total).toBeGreaterThan(20);
    let seen = state.links.getMany('item').length;
    let pages = 1;
    while (state.links.has('next')) {
      page = await page.follow('next');
      state = await page.get();
      seen += state.links.getMany('item').length;
      pages += 1;
    }
    expect(pages).toBe(state.data.meta.total_pages);
    expect(state.data.meta.page).toBe(pages);
    expect(seen).toBe(total);

    const book = await page.follow('item');
    const bookState = await book.get();
    expect(bookState.data).toMatchObject({ id: expect.any(Number), title: expect.any(String) });
    const author = await book.follow('author');
    const authorState = await author.get();
    expect(authorState.data.id).toBe(bookState.data.author_id);
    expect(authorState.data.name).toEqual(expect.any(String));
    // The book's own document (not the page's member): an anonymous caller is offered no way to change it.
    const full = await book.refresh();
    expect(full.data).toMatchObject({ ...bookState.data, available: true });
    expect(full.actions()).toEqual([]);
  });
});

describe('Ketting as the librarian, then as a member', () => {
  let memberToken: string;

  it('submits create on the books collection through its HAL-FORMS template and follows the Location', async () => {
    const ketting = client(ADMIN_TOKEN);
    const books = await ketting.go().follow('books');
    const collection = await books.get();
    const create = collection.action('create');
    expect(create.method).toBe('POST');
    expect(create.fields.map((f) => f.name)).toEqual([
      'title',
      'publication_year',
      'author_id',
      'isbn',
      'language',
      'subjects',
      'publisher',
    ]);
    // The author: the first item's author, reached by following links.
    const someBook = await (await books.follow('item')).get();
    const author = await someBook.follow('author').get();

    const created = await create.submit({
      title: 'The Ketting Chronicles',
      publication_year: 2024,
      author_id: author.data.id,
      isbn: '0-00-752549-4',
    });
    const book = await ketting.go(location(created)).get();
    expect(book.data).toMatchObject({
      title: 'The Ketting Chronicles',
      publication_year: 2024,
      available: true,
      isbn: '9780007525492',
    });
    expect(book.uri).toBe(location(created));
    expect(book.hasAction('update')).toBe(true);
    const bookAuthor = await book.follow('author').get();
    expect(bookAuthor.data.name).toBe(author.data.name);
  });

  it('creates a member and their token over HTTP, by the users collection and the user\u2019s tokens', async () => {
    const ketting = client(ADMIN_TOKEN);
    const users = await (await ketting.go().follow('users')).get();
    const created = await users.action('create').submit({ name: 'Kettie Member', role: 'member' });
    const user = ketting.go(location(created));
    expect((await user.get()).data).toMatchObject({ name: 'Kettie Member', role: 'member' });
    const tokens = await (await user.follow('tokens')).get();
    const token = await tokens.action('create').submit({ name: 'ketting' });
    memberToken = token.data.token;
    expect(memberToken).toMatch(/^cat_/);
  });

  it('as the member, finds and submits borrow on a book, then return on the loan', async () => {
    const ketting = client(memberToken);
    const root = await ketting.go().get();
    expect(root.links.has('me')).toBe(true);
    const results = await root.action('search').submit({ query: 'ketting chronicles' });
    const [found] = results.followAll('item');
    expect(found).toBeDefined();
    // Ketting caches an `_embedded` member as if it were the whole resource; ours are partial (links, no
    // templates: controls live on the item's own document), so the item is fetched before acting on it.
    const embedded = await found?.get();
    expect(embedded?.hasAction('borrow')).toBe(false);
    const book = await found?.refresh();
    expect(book?.data.title).toBe('The Ketting Chronicles');
    expect(book?.hasAction('borrow')).toBe(true);
    expect(book?.hasAction('update')).toBe(false);

    const borrowed = await book?.action('borrow').submit({});
    const loan = ketting.go(location(borrowed as State));
    const active = await loan.get();
    expect(active.data).toMatchObject({ status: 'active', book_id: book?.data.id, returned_at: null });
    const returnAction = active.action('return');
    expect(returnAction.method).toBe('PATCH');

    const returned = await returnAction.submit({});
    expect(returned.data).toMatchObject({ status: 'returned' });
    const after = await loan.refresh();
    expect(after.data.status).toBe('returned');
    expect(after.hasAction('return')).toBe(false);
    // The book is back, and offers borrow again.
    const again = await (found as NonNullable<typeof found>).refresh();
    expect(again.data.available).toBe(true);
    expect(again.hasAction('borrow')).toBe(true);
  });
});

describe('Ketting\u2019s cache, kept true by rel="invalidates" and Content-Location', () => {
  /** The `rel="invalidates"` targets of a response, as absolute URLs. */
  function invalidated(state: State): string[] {
    return linkHeader(state)
      .filter((link) => link.rel === 'invalidates')
      .map((link) => new URL(link.href, server.url).href);
  }

  it('a create through Ketting invalidates the page of books it cached; its next read is fresh', async () => {
    const ketting = client(ADMIN_TOKEN);
    const books = await ketting.go().follow('books');
    const page = await books.get();
    const total = page.data.meta.total_items as number;
    const author = await (await (await books.follow('item')).get()).follow('author').get();

    // A book added behind Ketting's back: it answers from its cache, the page as it was.
    const behind = await fetch(new URL('/books', server.url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ title: 'Behind Ketting\u2019s Back', publication_year: 2020, author_id: author.data.id }),
    });
    expect(behind.status).toBe(201);
    expect(ketting.cache.has(books.uri)).toBe(true);
    expect((await books.get()).data.meta.total_items).toBe(total);

    // The same through Ketting: the create posts to /books, which is not the page cached; the answer names
    // the page among the documents it made stale, and Ketting drops it.
    const created = await page.action('create').submit({
      title: 'Invalidated Chronicles',
      publication_year: 2024,
      author_id: author.data.id,
    });
    expect(invalidated(created)).toContain(books.uri);
    expect(invalidated(created)).toContain(new URL(`/authors/${author.data.id}`, server.url).href);
    expect(ketting.cache.has(books.uri)).toBe(false);
    const fresh = await books.get();
    expect(fresh.data.meta.total_items).toBe(total + 2);

    // Content-Location: the 201's body is the new book, which Ketting keeps as the state at its URL.
    expect(created.headers.get('content-location')).toBe(created.headers.get('location'));
    const book = ketting.go(location(created));
    expect(ketting.cache.has(book.uri)).toBe(true);
    expect((await book.get()).data.title).toBe('Invalidated Chronicles');
  });

  it('a borrow through Ketting invalidates the book and the loans it cached; the loan it answers is cached', async () => {
    const admin = client(ADMIN_TOKEN);
    const users = await (await admin.go().follow('users')).get();
    const user = admin.go(location(await users.action('create').submit({ name: 'Cache Borrower', role: 'member' })));
    const token = (await (await (await user.follow('tokens')).get()).action('create').submit({})).data.token;
    const books = await (await admin.go().follow('books')).get();
    const someAuthor = await (await (await admin.go().follow('books')).follow('item')).get();
    await books.action('create').submit({
      title: 'Borrowed From Cache',
      publication_year: 2025,
      author_id: someAuthor.data.author_id,
    });

    const ketting = client(token);
    const root = await ketting.go().get();
    const loans = await ketting.go().follow('loans');
    expect((await loans.get()).data.meta.total_items).toBe(0);
    const found = (await root.action('search').submit({ query: 'borrowed from cache' })).followAll('item')[0];
    const book = await (found as NonNullable<typeof found>).refresh();
    expect(book.data.available).toBe(true);
    const bookUri = book.uri;

    const borrowed = await book.action('borrow').submit({});
    expect(invalidated(borrowed)).toEqual(expect.arrayContaining([bookUri, loans.uri]));
    // The answer is the loan, at its own URL: cached there, and fresh.
    expect(borrowed.headers.get('content-location')).toBe(borrowed.headers.get('location'));
    const loan = ketting.go(location(borrowed));
    expect(ketting.cache.has(loan.uri)).toBe(true);
    expect((await loan.get()).data.status).toBe('active');
    // What it made stale is read again, not served from the cache.
    expect(ketting.cache.has(bookUri)).toBe(false);
    expect((await ketting.go(bookUri).get()).data.available).toBe(false);
    expect((await loans.get()).data.meta.total_items).toBe(1);

    // Returning through Ketting: the book is available again on the next read. (The loans page embedded
    // the loan as an item, which Ketting cached in place of the loan's document: read the loan itself.)
    const returned = await (await loan.refresh()).action('return').submit({});
    expect(invalidated(returned)).toContain(bookUri);
    expect((await ketting.go(bookUri).get()).data.available).toBe(true);
  });
});

describe('Ketting as a member: a hold on a book that is out, the borrow when it is back, renewals', () => {
  /** A member and their token, made by the librarian through the users collection's controls. */
  async function newMember(admin: Ketting, name: string): Promise<{ uri: string; token: string }> {
    const users = await (await admin.go().follow('users')).get();
    const user = admin.go(location(await users.action('create').submit({ name, role: 'member' })));
    const token = (await (await (await user.follow('tokens')).get()).action('create').submit({})).data.token;
    return { uri: user.uri, token };
  }

  it('holds, is told its place, borrows the copy set aside for it, and renews until refused', async () => {
    const admin = client(ADMIN_TOKEN);
    // The librarian's setup: a book with its one copy lent to another member.
    const books = await (await admin.go().follow('books')).get();
    const someBook = await (await (await admin.go().follow('books')).follow('item')).get();
    const made = await books.action('create').submit({
      title: 'The Long Wait',
      publication_year: 2019,
      author_id: someBook.data.author_id,
    });
    const lentBook = await admin.go(location(made)).refresh();
    const other = await newMember(admin, 'Kettie Other');
    const borrowerId = Number(other.uri.split('/').pop());
    const lent = await lentBook.action('borrow').submit({ borrower_id: borrowerId });
    const otherLoan = admin.go(location(lent));

    // The member, from the root: search, the book is out, so hold rather than borrow.
    const reader = await newMember(admin, 'Kettie Reader');
    const ketting = client(reader.token);
    const root = await ketting.go().get();
    const [found] = (await root.action('search').submit({ query: 'long wait' })).followAll('item');
    const book = found as NonNullable<typeof found>;
    let bookState = await book.refresh();
    expect(bookState.data).toMatchObject({ title: 'The Long Wait', available: false, copies_available: 0 });
    expect(bookState.hasAction('borrow')).toBe(false);
    const placed = await bookState.action('hold').submit({});
    const hold = ketting.go(location(placed));
    expect((await hold.get()).data).toMatchObject({ status: 'waiting', position: 1 });
    bookState = await book.refresh();
    expect(bookState.data).toMatchObject({ hold_status: 'waiting', hold_position: 1 });
    expect(bookState.links.get('hold')?.href).toBe(new URL(hold.uri).pathname);

    // The copy comes back: it is set aside for the member, whose book now offers borrow.
    await (await otherLoan.refresh()).action('return').submit({});
    const ready = await hold.refresh();
    expect(ready.data).toMatchObject({ status: 'ready' });
    bookState = await (await hold.follow('book')).refresh();
    expect(bookState.data.hold_status).toBe('ready');
    const borrowed = await bookState.action('borrow').submit({});
    const loan = ketting.go(location(borrowed));
    let loanState = await loan.get();
    expect(loanState.data).toMatchObject({ status: 'active', renewals: 0 });

    // Renew through the template while it is offered (the default limit: twice); then it is gone, and the
    // template submitted once more is refused with 409.
    const renew = loanState.action('renew');
    expect(renew.method).toBe('POST');
    for (const count of [1, 2]) {
      const renewed = await loanState.action('renew').submit({});
      expect(renewed.data.renewals).toBe(count);
      loanState = await loan.refresh();
    }
    expect(loanState.hasAction('renew')).toBe(false);
    expect(loanState.hasAction('return')).toBe(true);
    const refusal = await renew.submit({}).then(
      () => undefined,
      (error: { status?: number; response?: Response }) => error,
    );
    if (!refusal?.response) throw new Error('a renewal past the limit was not refused');
    expect(refusal.status).toBe(409);
    const body = (await refusal.response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/renewed as often as a loan may be/);
  });
});

describe('Ketting and facets', () => {
  it('searches with facets through the root’s template and narrows by a `facet` link', async () => {
    const ketting = client();
    const results = await ketting.go().follow('search', { query: 'austen', facets: 'decade,available' });
    const state = await results.get();
    const facetLinks = state.links.getMany('facet');
    expect(facetLinks.length).toBe(state.data.facets.flatMap((f: { values: unknown[] }) => f.values).length);
    const decade = facetLinks.find((link) => link.title?.startsWith('Decade: 1810s ('));
    expect(decade).toBeDefined();
    const count = Number(/\((\d+)\)$/.exec(decade?.title ?? '')?.[1]);
    const narrowed = await ketting.go(new URL(decade?.href as string, state.uri).href).get();
    expect(narrowed.data.meta.total_items).toBe(count);
    expect(narrowed.links.getMany('facet').map((link) => link.title)).toContain(`Decade: 1810s (${count}, chosen)`);
  });
});
