/**
 * A search with more matches than are ranked (here the limit is 3) is in id order, except that the items it
 * names exactly (a book's whole title, an author's whole name, read as a search reads them) come first:
 * whatever the number of matches, `the last man` finds The Last Man on its first page. Paging by cursor,
 * by page number, backwards and from the last page, and the unpaginated stream, all keep that one order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, addBook, json, linkHref, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

let t: TestCatalogue;
const b: Record<string, number> = {};
const a: Record<string, number> = {};

interface Page {
  data: { id: number; title?: string; name?: string }[];
  meta: { page: number; total_items: number; total_items_estimated?: true };
  links: { rel: string; href: string }[];
}

beforeAll(async () => {
  t = await openTestCatalogue({ listingCountLimit: 3 });
  a.shelley = await addAuthor(t, 'Mary Shelley');
  a.other = await addAuthor(t, 'Petra Ordinary');
  a.shelleySmith = await addAuthor(t, 'Mary Shelley Smith');
  a.reversed = await addAuthor(t, 'Shelley Mary');
  a.accented = await addAuthor(t, 'Márý Shélley');
  a.between = await addAuthor(t, 'Mary Ann Shelley');
  // In id order: the exact ones are neither the first nor together.
  b.standing = await addBook(t, 'Last Man Standing', 1980, a.other);
  b.theLastMan = await addBook(t, 'The Last Man', 1826, a.shelley);
  b.cameLast = await addBook(t, 'The Man Who Came Last', 1990, a.other);
  b.lastManOut = await addBook(t, 'Last Man Running', 2001, a.other);
  b.again = await addBook(t, 'Last Man', 2010, a.other);
  b.between = await addBook(t, 'Last of the Man', 1999, a.other);
  b.accented = await addBook(t, 'THE LÄST MÁN', 2015, a.other);
  b.unrelated = await addBook(t, 'Frankenstein', 1818, a.shelley);
});

afterAll(async () => {
  await t?.close();
});

async function page(href: string): Promise<Page> {
  const response = await t.anonymous.request(href);
  expect(response.status).toBe(200);
  return json<Page>(response);
}

const ids = (p: Page) => p.data.map((item) => item.id);

/** Every page from `href` on, following `rel`: each page's ids in the order shown, and where it was. */
async function walk(href: string, rel: 'next' | 'prev'): Promise<{ pages: number[][]; hrefs: string[] }> {
  const pages: number[][] = [];
  const hrefs: string[] = [];
  let at: string | undefined = href;
  while (at) {
    const p = await page(at);
    pages.push(ids(p));
    hrefs.push(at);
    at = linkHref(p, rel);
  }
  return { pages, hrefs };
}

/** `the last man`: the three books it names exactly by id, then the other matches by id. */
const lastManOrder = () =>
  [b.theLastMan, b.again, b.accented, b.standing, b.cameLast, b.lastManOut, b.between] as number[];

describe('a search past the ranked limit', () => {
  it('lists the books it names exactly first (articles, case and accents aside), then the others by id', async () => {
    const p = await page('/books?query=the%20last%20man&per_page=50');
    expect(p.meta.total_items_estimated).toBe(true);
    expect(ids(p)).toEqual(lastManOrder());
    // Without the article, the same three are exact.
    expect(ids(await page('/books?query=last%20man&per_page=50')).slice(0, 3)).toEqual(lastManOrder().slice(0, 3));
  });

  it('takes a word dropped between two as part of the title: `last man` does not name Last of the Man', async () => {
    const p = await page('/books?query=last%20of%20the%20man&per_page=50');
    expect(ids(p)[0]).toBe(b.between);
    const q = await page('/books?query=last%20man&per_page=50');
    expect(ids(q).indexOf(b.between as number)).toBeGreaterThan(2);
  });

  it('walks every match once by `next`, and back by `prev`, in that order', async () => {
    const forward = await walk('/books?query=the%20last%20man&per_page=2', 'next');
    expect(forward.pages.flat()).toEqual(lastManOrder());
    expect(forward.pages[0]).toEqual([b.theLastMan, b.again]);
    const backward = await walk(forward.hrefs.at(-1) as string, 'prev');
    expect(backward.pages.reverse().flat()).toEqual(lastManOrder());
  });

  it('walks back by `prev` from the last page to the first match, though the estimate numbers too few pages', async () => {
    const first = await page('/books?query=the%20last%20man&per_page=2');
    // The planner's estimate, on which the last page's number rests, is below the 7 matches here.
    expect(first.meta.total_items).toBeLessThan(lastManOrder().length);
    const backward = await walk(linkHref(first, 'last') as string, 'prev');
    // Every match is reached, and the walk ends on page 1 as it reads from the start. (Pages counted
    // back from an estimate need not fall where pages counted forward do, so page 1 may repeat an item.)
    expect(new Set(backward.pages.flat())).toEqual(new Set(lastManOrder()));
    expect(backward.pages.at(-1)).toEqual(ids(first));
    expect((await page(backward.hrefs.at(-1) as string)).meta.page).toBe(1);
  });

  it('answers the last page with the last matches', async () => {
    const first = await page('/books?query=the%20last%20man&per_page=2');
    const last = await page(linkHref(first, 'last') as string);
    // The total is the planner's estimate here, so the last page holds what the estimate leaves for it.
    expect(ids(last).length).toBeGreaterThan(0);
    expect(ids(last)).toEqual(lastManOrder().slice(-ids(last).length));
  });

  it('answers a page by number as the cursor reaches it', async () => {
    const byNumber = await page('/books?query=the%20last%20man&per_page=2&page=2');
    const first = await page('/books?query=the%20last%20man&per_page=2');
    const byCursor = await page(linkHref(first, 'next') as string);
    expect(ids(byNumber)).toEqual(ids(byCursor));
    expect(ids(byNumber)).toEqual([b.accented, b.standing]);
  });

  it('streams the whole listing in the same order', async () => {
    const response = await t.anonymous.request('/books?query=the%20last%20man');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: number }[] | { data: { id: number }[] };
    const streamed = Array.isArray(body) ? body : body.data;
    expect(streamed.map((book) => book.id)).toEqual(lastManOrder());
  });

  it('pages a search of more words than are looked up (matched as typed) by its cursors too', async () => {
    // Eight words as typed, each joined to another by a comma: more than 16 words as search splits them.
    const words = ['last', 'man', ...Array.from({ length: 6 }, (_, i) => `zebra${i},yak${i}`)];
    const query = encodeURIComponent(words.join(' or '));
    const walked = await walk(`/books?query=${query}&per_page=2`, 'next');
    expect(new Set(walked.pages.flat())).toEqual(new Set(lastManOrder()));
    expect(walked.pages.flat()).toHaveLength(lastManOrder().length);
  });

  it('is in id order alone when a sort is asked for', async () => {
    const p = await page('/books?query=the%20last%20man&per_page=50&sort=id');
    expect(ids(p)).toEqual([...lastManOrder()].sort((x, y) => x - y));
  });

  it('walks on to the other matches when the books a cursor was on are retitled meanwhile', async () => {
    const first = await page('/books?query=last%20man&per_page=1');
    expect(ids(first)).toEqual([b.theLastMan]);
    const next = linkHref(first, 'next') as string;
    const retitled = [b.again, b.accented];
    try {
      for (const id of [b.theLastMan, ...retitled]) {
        const response = await t.send('PATCH', `/books/${id}`, { title: `Untitled ${id}` });
        expect(response.status).toBe(200);
      }
      const rest = await walk(next, 'next');
      expect(rest.pages.flat()).toEqual([b.standing, b.cameLast, b.lastManOut, b.between]);
    } finally {
      await t.send('PATCH', `/books/${b.theLastMan}`, { title: 'The Last Man' });
      await t.send('PATCH', `/books/${b.again}`, { title: 'Last Man' });
      await t.send('PATCH', `/books/${b.accented}`, { title: 'THE LÄST MÁN' });
    }
    expect(ids(await page('/books?query=the%20last%20man&per_page=50'))).toEqual(lastManOrder());
  });

  it('refuses a cursor whose order keys were tampered with, in the error shape', async () => {
    const first = await page('/books?query=the%20last%20man&per_page=2');
    const next = new URL(linkHref(first, 'next') as string, 'http://catalogue.test');
    const cursor = JSON.parse(Buffer.from(next.searchParams.get('cursor') as string, 'base64url').toString('utf8'));
    for (const tier of [2, -1, 0.5, '0']) {
      cursor[2][0] = tier;
      next.searchParams.set('cursor', Buffer.from(JSON.stringify(cursor)).toString('base64url'));
      const response = await t.anonymous.request(`${next.pathname}${next.search}`);
      expect(response.status).toBe(400);
      const body = await json<{ error: { code: string; message: string } }>(response);
      expect(body.error.message).toMatch(/cursor/);
    }
  });

  it('lists the authors it names exactly first, too', async () => {
    const p = await page('/authors?query=mary%20shelley&per_page=50');
    expect(p.meta.total_items_estimated).toBe(true);
    expect(ids(p)).toEqual([a.shelley, a.accented, a.shelleySmith, a.reversed, a.between]);
  });
});
