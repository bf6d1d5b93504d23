/**
 * Search that forgives: accents and case folded, misspelt words corrected to the catalogue's own words,
 * the last word a prefix, nonsense finding nothing, relevance tiers, "did you mean" links, and the word
 * dictionary kept exact by every write, also concurrent ones.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { ROMANISATION_MARKS } from '../src/db/queries/search.js';
import { addAuthor, addBook, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { dictionaryAndRecount } from './support/dictionary.js';
import type { ErrorDocument } from './support/documents.js';

let t: TestCatalogue;
const b: Record<string, number> = {};

interface Page {
  data: { id: number; title: string }[];
  meta: { total_items: number };
  links: { rel: string; href: string; title?: string }[];
}

beforeAll(async () => {
  t = await openTestCatalogue();
  const kierkegaard = await addAuthor(t, 'Søren Kierkegaard');
  const lagerlof = await addAuthor(t, 'Selma Lagerlöf');
  const zola = await addAuthor(t, 'Émile Zola');
  const shelley = await addAuthor(t, 'Mary Shelley');
  const aldiss = await addAuthor(t, 'Brian Aldiss');
  const other = await addAuthor(t, 'Petra Ordinary');
  b.fear = await addBook(t, 'Fear and Trembling', 1843, kierkegaard);
  b.either = await addBook(t, 'Either/Or', 1843, kierkegaard);
  b.gosta = await addBook(t, 'Gösta Berling’s Saga', 1891, lagerlof);
  b.nils = await addBook(t, 'The Wonderful Adventures of Nils', 1906, lagerlof);
  b.germinal = await addBook(t, 'Germinal', 1885, zola);
  b.therese = await addBook(t, 'Thérèse Raquin', 1867, zola);
  b.unbound = await addBook(t, 'Frankenstein Unbound', 1973, aldiss);
  b.frankenstein = await addBook(t, 'Frankenstein', 1818, shelley);
  b.manCameLast = await addBook(t, 'The Man Who Came Last', 1990, other);
  b.lastManStanding = await addBook(t, 'Last Man Standing', 1980, other);
  b.theLastMan = await addBook(t, 'The Last Man', 1826, shelley);
  b.station = await addBook(t, 'Station 4.50 Diaries', 1957, other);
});

afterAll(async () => {
  await t?.close();
});

async function search(params: Record<string, string>, client = t.anonymous): Promise<Page> {
  const response = await client.request(`/books?${new URLSearchParams({ per_page: '50', ...params })}`);
  expect(response.status).toBe(200);
  return json<Page>(response);
}

const found = async (query: string) => (await search({ query })).data.map((book) => book.id);
const correction = (page: Page) => page.links.find((link) => link.rel === 'correction');

describe('accents and case', () => {
  it('are folded in the catalogue and in the search alike', async () => {
    expect(await found('gosta berling')).toEqual([b.gosta]);
    expect(await found('THERESE raquin')).toEqual([b.therese]);
    expect(await found('Thérèse')).toEqual([b.therese]);
    expect(await found('Frankénstein unbound')).toEqual([b.unbound]);
    expect((await search({ author: 'lagerlof' })).data.map((book) => book.id)).toEqual([b.gosta, b.nils]);
    expect((await search({ author: 'EMILE zola' })).data.map((book) => book.id)).toEqual([b.germinal, b.therese]);
    expect((await search({ author: 'soren' })).data.map((book) => book.id)).toEqual([b.fear, b.either]);
  });
});

describe('misspelt words', () => {
  it('match the catalogue’s words within one edit (4–7 letters) or two (8 and more)', async () => {
    expect(await found('germinl')).toEqual([b.germinal]);
    expect(await found('raqin')).toEqual([b.therese]);
    expect(await found('kierkegard trembling')).toEqual([b.fear]);
    expect(await found('frankenstien')).toEqual([b.frankenstein, b.unbound]);
    expect((await search({ author: 'lagerlaf' })).data.map((book) => book.id)).toEqual([b.gosta, b.nils]);
  });

  it('are not corrected beyond their edit distance, nor when shorter than four letters', async () => {
    expect(await found('rqnin')).toEqual([]);
    expect(await found('raquim zola')).toEqual([b.therese]);
    expect(await found('mab')).toEqual([]);
    expect(await found('zla')).toEqual([]);
  });

  it('nonsense finds nothing, and offers no correction', async () => {
    for (const query of ['qwxzvbn', 'zzzzzz', 'xkcdqp frankenstein', 'ghjkl']) {
      const page = await search({ query });
      expect(page.data, query).toEqual([]);
      expect(correction(page), query).toBeUndefined();
    }
  });
});

describe('words that fold to no letter', () => {
  // Modifier letters such as the apostrophe U+02BC are letters where words are split, and are romanisation's
  // marks, which search leaves out: a word of nothing else is no word. (`unaccent` would fold them to
  // punctuation: `ʹʻʼʽˈ` to an apostrophe, `ʺ` to a quote, `ˆˋː` to `^`, a backtick and a colon.)
  it('are left out of a search, and alone find nothing, in every collection and in suggestions', async () => {
    for (const letter of 'ʹʺʻʼʽˆˈˋː') {
      expect(await found(letter), letter).toEqual([]);
      expect(await found(`${letter} germinal`), letter).toEqual([b.germinal]);
    }
    expect(await found('ʼ germinal')).toEqual([b.germinal]);
    expect(await found('germinal ʼ')).toEqual([b.germinal]);
    expect((await search({ author: 'ʼ zola' })).data.map((book) => book.id)).toEqual([b.germinal, b.therese]);
    expect((await search({ author: 'ʼ' })).data).toEqual([]);
    for (const path of ['/authors?query=%CA%BC', '/suggestions?query=%CA%BC', '/suggestions?query=germ%20%CA%BC']) {
      const response = await t.anonymous.request(path);
      expect(response.status, path).toBe(200);
    }
    const suggested = await json<{ data: { label: string }[] }>(await t.anonymous.request('/suggestions?query=%CA%BC'));
    expect(suggested.data).toEqual([]);
  });
});

describe('romanisation’s marks', () => {
  // Catalogues romanise Arabic, Russian and Hawaiian with modifier letters (ALA-LC): alif and ayn `ʼ ʻ`, or
  // `ʾ ʿ`; the soft sign `ʹ`; the ʻokina. A person types them, an apostrophe, or nothing.
  const r: Record<string, number> = {};
  beforeAll(async () => {
    const jabarti = await addAuthor(t, 'ʻAbd al-Raḥmān al-Jabartī');
    const malo = await addAuthor(t, 'Davida Malo');
    const chekhov = await addAuthor(t, 'Anton Pavlovich Chekhov');
    r.tarikh = await addBook(t, 'Taʼrīkh Baghdād', 1070, jabarti);
    r.baghdad = await addBook(t, 'Baghdād: taʼrīkh wa-ḥaḍārah', 1980, jabarti);
    r.rasail = await addBook(t, 'Rasāʾil wa-masāʾil', 1950, jabarti);
    r.moolelo = await addBook(t, 'Moʻolelo Hawaiʻi', 1951, malo);
    r.stepʹ = await addBook(t, 'Stepʹ', 1888, chekhov);
    r.third = await addBook(t, "Odd O'Brien Stories", 1967, malo);
  });

  it('are left out in the catalogue and in the search alike: typed as catalogued, as another mark, or not at all', async () => {
    for (const query of ['Taʼrīkh Baghdād', 'tarikh baghdad', 'taʾrikh baghdad', 'taʿrikh baghdad', 'TARIKH']) {
      expect(await found(query), query).toEqual([r.tarikh, r.baghdad]);
    }
    expect(await found('rasail masail')).toEqual([r.rasail]);
    expect(await found('Rasāʼil')).toEqual([r.rasail]);
    expect(await found('hawaii')).toEqual([r.moolelo]);
    expect(await found('moʻolelo')).toEqual([r.moolelo]);
    expect(await found('step')).toEqual([r.stepʹ]);
    expect(await found('Stepʹ')).toEqual([r.stepʹ]);
    const authors = await json<{ name: string }[]>(await t.anonymous.request('/authors?query=abd%20jabarti'));
    expect(authors.map((author) => author.name)).toEqual(['ʻAbd al-Raḥmān al-Jabartī']);
    const named = await search({ author: 'abd al-rahman' });
    expect(named.data.map((book) => book.id)).toEqual([r.tarikh, r.baghdad, r.rasail]);
  });

  it('are found when typed as an apostrophe, which also still splits the words it stands between', async () => {
    expect(await found("ta'rikh baghdad")).toEqual([r.tarikh, r.baghdad]);
    expect(await found('ta’rikh')).toEqual([r.tarikh, r.baghdad]);
    expect(await found("hawai'i")).toEqual([r.moolelo]);
    expect(await found("o'brien")).toEqual([r.third]);
    expect(await found('brien stories')).toEqual([r.third]);
    expect((await search({ author: "Mo'olelo" })).data).toEqual([]);
  });

  it('rank an exact title first, and are corrected like any other word', async () => {
    expect((await found("Ta'rīkh Baghdād"))[0]).toBe(r.tarikh);
    expect((await found('baghdad tarikh wa-hadarah'))[0]).toBe(r.baghdad);
    const page = await search({ query: 'tarikk baghdad' });
    expect(page.data.map((book) => book.id)).toEqual([r.tarikh, r.baghdad]);
    expect(correction(page)).toMatchObject({ title: 'tarikh baghdad' });
  });

  it('are left out of suggestions too', async () => {
    const labels = async (typed: string) =>
      (
        await json<{ data: { label: string }[] }>(
          await t.anonymous.request(`/suggestions?query=${encodeURIComponent(typed)}`),
        )
      ).data.map((suggestion) => suggestion.label);
    // The author first, then the books found by her name.
    expect((await labels('jabar'))[0]).toBe('ʻAbd al-Raḥmān al-Jabartī');
    expect(await labels('moolel')).toEqual(['Moʻolelo Hawaiʻi']);
    expect(await labels('taʼrikh bag')).toContain('Taʼrīkh Baghdād');
  });

  it('are the same letters in the search’s text as in the database’s functions', async () => {
    // Every character of the Basic Multilingual Plane but NUL and the surrogates: those each leaves out.
    const every = Array.from({ length: 0xffff }, (_, i) => String.fromCodePoint(i + 1)).filter(
      (c) => c < '\u{d800}' || c > '\u{dfff}',
    );
    const rows = rowsOf<{ mark: string }>(
      await t.database.db.execute(sql`select c as mark from unnest(${sql.param(every)}::text[]) with ordinality as e(c, i)
        where catalogue_unmark(c) = '' order by i`),
    );
    const leftOut = every.filter((c) => c.replace(ROMANISATION_MARKS, '') === '');
    expect(rows.map((row) => row.mark).join('')).toBe(leftOut.join(''));
    expect(leftOut).toHaveLength(25);
  });
});

describe('what found something before search forgave', () => {
  it('still finds it: tokens the parser keeps whole, web syntax, stems', async () => {
    expect(await found('4.50 diaries')).toEqual([b.station]);
    expect(await found('station 4.50')).toEqual([b.station]);
    expect(await found('"last man" -standing')).toEqual([b.theLastMan]);
    expect(await found('diary')).toEqual([b.station]);
  });
});

describe('the last word', () => {
  it('matches as a prefix, as a person types; the words before it only whole (or corrected)', async () => {
    expect(await found('germ')).toEqual([b.germinal]);
    expect(await found('fear and trem')).toEqual([b.fear]);
    expect(await found('kierk')).toEqual([b.fear, b.either]);
    expect(await found('wond adventures')).toEqual([]);
    expect(await found('trem fear')).toEqual([]);
  });
});

describe('relevance', () => {
  it('ranks an exact title first, then the words as a phrase, then all the words', async () => {
    expect(await found('last man')).toEqual([b.theLastMan, b.lastManStanding, b.manCameLast]);
    expect(await found('the last man')).toEqual([b.theLastMan, b.lastManStanding, b.manCameLast]);
  });

  it('ranks an exact title first after a correction too, and an author’s name like a title', async () => {
    expect(await found('frankenstein')).toEqual([b.frankenstein, b.unbound]);
    expect(await found('frankenstien')).toEqual([b.frankenstein, b.unbound]);
    // "Shelley" is in the author's name, "last man" in the title: both count.
    expect(await found('shelley last man')).toEqual([b.theLastMan]);
  });

  it('keeps ties in a stable order, so that following `next` walks every match once', async () => {
    const all = (await search({ query: 'man' })).data.map((book) => book.id);
    expect(all).toHaveLength(3);
    const walked: number[] = [];
    let href: string | undefined = `/books?query=man&per_page=1`;
    while (href) {
      const page: Page = await json<Page>(await t.anonymous.request(href));
      walked.push(...page.data.map((book) => book.id));
      href = page.links.find((link) => link.rel === 'next')?.href;
    }
    expect(walked).toEqual(all);
  });
});

describe('"did you mean"', () => {
  it('links a search whose word was corrected to the corrected search, titled with its text', async () => {
    const page = await search({ query: 'germinl' });
    expect(correction(page)).toMatchObject({ title: 'germinal' });
    const corrected = await json<Page>(await t.anonymous.request(correction(page)?.href as string));
    expect(corrected.data.map((book) => book.id)).toEqual([b.germinal]);
    expect(correction(corrected)).toBeUndefined();
    expect(new URL(correction(page)?.href as string, 'http://x').searchParams.get('query')).toBe('germinal');
  });

  it('keeps what was typed right as it was typed', async () => {
    const page = await search({ query: 'Frankenstein Unbond' });
    expect(correction(page)?.title).toBe('Frankenstein unbound');
  });

  it('offers no correction for a search found as typed', async () => {
    expect(correction(await search({ query: 'germinal' }))).toBeUndefined();
    expect(correction(await search({ query: 'germ' }))).toBeUndefined();
  });

  it('for a search in web syntax that found nothing, links the corrected one that finds something', async () => {
    const page = await search({ query: '"fear and trembeling"' });
    expect(page.data).toEqual([]);
    expect(correction(page)?.title).toBe('"fear and trembling"');
    const corrected = await json<Page>(await t.anonymous.request(correction(page)?.href as string));
    expect(corrected.data.map((book) => book.id)).toEqual([b.fear]);
  });

  it('corrects `author=` too', async () => {
    const page = await search({ author: 'lagerlaf' });
    const link = correction(page);
    expect(link?.title).toBe('lagerlof');
    expect(new URL(link?.href as string, 'http://x').searchParams.get('author')).toBe('lagerlof');
  });

  it('is in the HAL document as a link', async () => {
    const response = await t.anonymous.request('/books?query=germinl&per_page=5', {
      headers: { Accept: 'application/hal+json' },
    });
    const hal = await json<{ _links: Record<string, { href: string; title?: string }> }>(response);
    expect(hal._links.correction).toMatchObject({ title: 'germinal' });
  });
});

describe('the dictionary of the catalogue’s words', () => {
  it('learns a new title’s words in the writing transaction, and forgets them when retitled', async () => {
    const author = await addAuthor(t, 'Wanda Dictionary');
    const id = await addBook(t, 'Zanzibar Nights', 2001, author);
    expect(await found('zanzibr')).toEqual([id]);
    const retitled = await t.send('PATCH', `/books/${id}`, { title: 'Other Nights' }, { 'If-Match': '*' });
    expect(retitled.status).toBe(200);
    const page = await search({ query: 'zanzibr' });
    expect(page.data).toEqual([]);
    expect(correction(page)).toBeUndefined();
    expect(await found('nigts')).toEqual([id]);
  });

  it('counts the words of books written in one statement (an import’s batch) once per title', async () => {
    const author = await addAuthor(t, 'Batch Writer');
    await t.database.db.execute(sql`insert into books (title, publication_year, author_id) values
      ('Zephyrine Zephyrine Tale', 1990, ${author}),
      ('Zephyrine-Bound 1984', 1991, ${author}),
      ('Ørsted Zephyrines', 1992, ${author})`);
    const { kept, recount } = await dictionaryAndRecount(t.database);
    expect(kept).toEqual(recount);
    const uses = (word: string) => kept.find((row) => row.word === word)?.in_titles;
    expect([uses('zephyrine'), uses('zephyrines'), uses('orsted'), uses('bound')]).toEqual([2, 1, 1, 1]);
    expect([uses('zephyrine-bound'), uses('1984')]).toEqual([undefined, undefined]);
    expect(await found('zephyrne')).toHaveLength(3);
  });

  it('stays exactly the count of the words of every title and name after concurrent writes', async () => {
    const author = await addAuthor(t, 'Concurrent Scribe');
    const titles = Array.from({ length: 24 }, (_, i) => `Quasar ${['Harbour', 'Lantern', 'Meadow'][i % 3]} Tale`);
    const created = await Promise.all(
      titles.map((title, i) =>
        t.send('POST', '/books', { title, publication_year: 1900 + i, author_id: author }).then(json<{ id: number }>),
      ),
    );
    await Promise.all(
      created
        .slice(0, 8)
        .map((book) => t.send('PATCH', `/books/${book.id}`, { title: 'Nebula Lantern' }, { 'If-Match': '*' })),
    );
    const deleted = await Promise.all(
      created.slice(8, 12).map((book) => t.request(`/books/${book.id}`, { method: 'DELETE' })),
    );
    for (const response of deleted) expect(response.status, await response.text()).toBe(204);
    await t.send('PATCH', `/authors/${author}`, { name: 'Concurrent Scrivener' }, { 'If-Match': '*' });
    const { kept, recount } = await dictionaryAndRecount(t.database);
    expect(kept).toEqual(recount);
    expect(kept.find((row) => row.word === 'quasar')?.in_titles).toBe(12);
    expect(kept.find((row) => row.word === 'scribe')).toBeUndefined();
    expect(await found('quasr lantern')).toHaveLength(4);
  });
});

describe('the GIN indexes', () => {
  it('take every write into their tree, so that no search reads a pending list of what was written since', async () => {
    const author = await addAuthor(t, 'Pending Listwright');
    const created = await t.send('POST', '/books', {
      title: 'Quillon Harbour',
      publication_year: 1999,
      author_id: author,
      subjects: ['Quillon studies'],
    });
    expect(created.status).toBe(201);
    expect(await found('quillon')).toHaveLength(1);
    // Merging a list answers how many of its pages were merged; every index's should be empty.
    const merged = rowsOf<{ index: string; pages: number }>(
      await t.database.db.execute(sql`select c.relname as index, gin_clean_pending_list(c.oid::regclass) as pages
        from pg_class c join pg_am a on a.oid = c.relam
        where a.amname = 'gin' and c.relnamespace = 'public'::regnamespace order by c.relname`),
    );
    expect(merged.map((row) => [row.index, Number(row.pages)])).toEqual([
      ['authors_search_idx', 0],
      ['books_search_idx', 0],
      ['books_subjects_idx', 0],
    ]);
  });
});

describe('bad input still answers in the error shape', () => {
  it('a word longer than any misspelling (300 letters) in the catalogue or the search is matched as typed', async () => {
    const author = await addAuthor(t, 'Lengthy Writer');
    const long = `long${'o'.repeat(296)}`;
    const id = await addBook(t, `The ${long} Road`, 2003, author);
    expect(await found(long)).toEqual([id]);
    expect(await found(`${long}x`)).toEqual([]);
    expect(await found(`l${'o'.repeat(290)}`)).toEqual([]);
    const suggested = await t.anonymous.request(`/suggestions?query=${'o'.repeat(300)}`);
    expect(suggested.status).toBe(200);
  });

  it('a search of only punctuation, or of many words, changes nothing and never fails', async () => {
    expect((await search({ query: '%%%' })).data).toEqual([]);
    expect((await search({ query: "'\\:*&|!" })).data).toEqual([]);
    const many = Array.from({ length: 16 }, (_, i) => `wörd${i}`).join(' ');
    expect((await search({ query: many })).data).toEqual([]);
    const response = await t.anonymous.request(
      `/books?query=${encodeURIComponent(Array.from({ length: 17 }, () => 'w').join(' '))}`,
    );
    expect(response.status).toBe(400);
    expect(await json<ErrorDocument>(response)).toMatchObject({
      error: { code: 400, message: expect.stringContaining('query') },
    });
  });
});
