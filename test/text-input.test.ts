/**
 * Text as people type it: the same name typed in two Unicode spellings (precomposed, or a letter and a
 * combining mark) is one name, stored and found as one; a name made only of characters that draw nothing
 * is blank. Over HTTP, on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

const NFC = 'Zo\u00eb Br\u00fcckner';
const NFD = 'Zoe\u0308 Bru\u0308ckner';

let t: TestCatalogue;
beforeAll(async () => {
  t = await openTestCatalogue();
});
afterAll(() => t.close());

describe('Unicode normal form', () => {
  it('a name sent decomposed (NFD) is stored composed (NFC), and an NFC search finds it', async () => {
    expect(NFD).not.toBe(NFC);
    const id = await addAuthor(t, NFD);
    const author = await json(await t.request(`/authors/${id}`));
    expect(author.name).toBe(NFC);
    const found = await json(await t.request(`/authors?query=${encodeURIComponent(NFC)}`));
    expect(found.map((a: { id: number }) => a.id)).toContain(id);
  });

  it('a book title and a changed name are normalised too', async () => {
    const authorId = await addAuthor(t, 'Plain Name');
    const created = await t.send('POST', '/books', {
      title: `Caf\u0065\u0301 ${NFD}`,
      publication_year: 2001,
      author_id: authorId,
    });
    expect(created.status).toBe(201);
    expect((await json(created)).title).toBe(`Caf\u00e9 ${NFC}`);
    const changed = await t.send('PATCH', `/authors/${authorId}`, { name: NFD });
    expect(changed.status).toBe(200);
    expect((await json(changed)).name).toBe(NFC);
  });

  it('a search, an author name and a filter sent decomposed find what was stored composed', async () => {
    const id = await addAuthor(t, 'Jos\u00e9 Sara\u00e9go');
    const decomposed = 'Jose\u0301 Sarae\u0301go';
    const byQuery = await json(await t.request(`/authors?query=${encodeURIComponent(decomposed)}`));
    expect(byQuery.map((a: { id: number }) => a.id)).toContain(id);
    const created = await t.send('POST', '/books', {
      title: 'Caf\u00e9 Stories',
      publication_year: 1999,
      author_id: id,
    });
    expect(created.status).toBe(201);
    const byAuthor = await json(await t.request(`/books?author=${encodeURIComponent(decomposed)}`));
    expect(byAuthor.map((b: { title: string }) => b.title)).toEqual(['Caf\u00e9 Stories']);
    const byFilter = await json(await t.request(`/books?filter=${encodeURIComponent('title:Cafe\u0301 Stories')}`));
    expect(byFilter.map((b: { title: string }) => b.title)).toEqual(['Caf\u00e9 Stories']);
  });
});

describe('searches are bounded', () => {
  it(`a search of more words than the limit is refused, naming the limit, and one at it is answered`, async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
    const over = await t.request(`/books?query=${encodeURIComponent(words(17))}`);
    expect(over.status).toBe(400);
    expect(await json(over)).toEqual({
      error: {
        code: 400,
        message: 'query parameter "query" must have at most 16 words',
        details: { query: expect.any(String) },
      },
    });
    expect((await t.request(`/books?query=${encodeURIComponent(words(16))}`)).status).toBe(200);
  });
});

describe('invisible text is blank', () => {
  const invisible = {
    'zero-width spaces': '\u200b\u200b\u200b',
    'zero-width joiner and non-joiner': '\u200d\u200c',
    'a byte-order mark and a word joiner': '\ufeff\u2060',
    'a soft hyphen': '\u00ad',
    'a lone combining mark': '\u0301',
    'a Hangul filler': '\u3164',
    'a braille blank': '\u2800',
    'no-break and ideographic spaces': '\u00a0\u3000',
  };
  for (const [what, name] of Object.entries(invisible)) {
    it(`a name of ${what} is refused as blank, and nothing is created`, async () => {
      const before = (await json(await t.request('/authors?page=1&per_page=1'))).meta.total_items;
      const response = await t.send('POST', '/authors', { name });
      expect(response.status).toBe(400);
      const body = await json(response);
      expect(body.error).toMatchObject({ code: 400, details: { name: 'must not be blank' } });
      expect((await json(await t.request('/authors?page=1&per_page=1'))).meta.total_items).toBe(before);
    });
  }

  it('visible text with invisible characters in it is kept', async () => {
    const id = await addAuthor(t, 'Anna\u200bMaria');
    expect((await json(await t.request(`/authors/${id}`))).name).toBe('Anna\u200bMaria');
  });
});
