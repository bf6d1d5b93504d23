/**
 * Text as people type it: the same name typed in two Unicode spellings (precomposed, or a letter and a
 * combining mark) is one name, stored and found as one; a name made only of characters that draw nothing
 * is blank. Over HTTP, on PGlite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type {
  AuthorDocument,
  BookDocument,
  CollectionDocument,
  ErrorDocument,
  PageDoc,
  UserDocument,
} from './support/documents.js';

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
    const author = await json<AuthorDocument>(await t.request(`/authors/${id}`));
    expect(author.name).toBe(NFC);
    const found = await json<CollectionDocument<AuthorDocument>>(
      await t.request(`/authors?query=${encodeURIComponent(NFC)}`),
    );
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
    expect((await json<BookDocument>(created)).title).toBe(`Caf\u00e9 ${NFC}`);
    const changed = await t.send('PATCH', `/authors/${authorId}`, { name: NFD });
    expect(changed.status).toBe(200);
    expect((await json<AuthorDocument>(changed)).name).toBe(NFC);
  });

  it('a search, an author name and a filter sent decomposed find what was stored composed', async () => {
    const id = await addAuthor(t, 'Jos\u00e9 Sara\u00e9go');
    const decomposed = 'Jose\u0301 Sarae\u0301go';
    const byQuery = await json<CollectionDocument<AuthorDocument>>(
      await t.request(`/authors?query=${encodeURIComponent(decomposed)}`),
    );
    expect(byQuery.map((a: { id: number }) => a.id)).toContain(id);
    const created = await t.send('POST', '/books', {
      title: 'Caf\u00e9 Stories',
      publication_year: 1999,
      author_id: id,
    });
    expect(created.status).toBe(201);
    const byAuthor = await json<CollectionDocument<BookDocument>>(
      await t.request(`/books?author=${encodeURIComponent(decomposed)}`),
    );
    expect(byAuthor.map((b: { title: string }) => b.title)).toEqual(['Caf\u00e9 Stories']);
    const byFilter = await json<CollectionDocument<BookDocument>>(
      await t.request(`/books?filter=${encodeURIComponent('title:Cafe\u0301 Stories')}`),
    );
    expect(byFilter.map((b: { title: string }) => b.title)).toEqual(['Caf\u00e9 Stories']);
  });
});

describe('searches are bounded', () => {
  it(`a search of more words than the limit is refused, naming the limit, and one at it is answered`, async () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
    const over = await t.request(`/books?query=${encodeURIComponent(words(17))}`);
    expect(over.status).toBe(400);
    expect(await json<ErrorDocument>(over)).toEqual({
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
      const before = (await json<PageDoc<AuthorDocument>>(await t.request('/authors?page=1&per_page=1'))).meta
        .total_items;
      const response = await t.send('POST', '/authors', { name });
      expect(response.status).toBe(400);
      const body = await json<ErrorDocument>(response);
      expect(body.error).toMatchObject({ code: 400, details: { name: 'must not be blank' } });
      expect(
        (await json<PageDoc<AuthorDocument>>(await t.request('/authors?page=1&per_page=1'))).meta.total_items,
      ).toBe(before);
    });
  }

  it('visible text with invisible characters in it is kept', async () => {
    const id = await addAuthor(t, 'Anna\u200bMaria');
    expect((await json<AuthorDocument>(await t.request(`/authors/${id}`))).name).toBe('Anna\u200bMaria');
  });
});

describe('text that is not well-formed Unicode is refused', () => {
  /** Each write of text, and what it changes: a count, or the text read back. */
  async function counted(path: string): Promise<number> {
    return (await json<PageDoc>(await t.request(`${path}?page=1&per_page=1`))).meta.total_items;
  }

  function expectRefused(body: { error: unknown }, field: string) {
    expect(body.error).toMatchObject({ code: 400, details: { [field]: expect.stringMatching(/unpaired surrogate/) } });
  }

  const lone = {
    'a lone high surrogate': 'A\ud800B',
    'a lone low surrogate': '\udc00Zed',
    'a cut pair': 'Smile \ud83d',
  };
  for (const [what, text] of Object.entries(lone)) {
    it(`an author name, a book title and a user name holding ${what} are refused, naming the field, and nothing changes`, async () => {
      const authors = await counted('/authors');
      const author = await t.send('POST', '/authors', { name: text });
      expect(author.status).toBe(400);
      expectRefused(await json<ErrorDocument>(author), 'name');
      expect(await counted('/authors')).toBe(authors);

      const authorId = await addAuthor(t, `Well Formed ${what}`);
      const renamed = await t.send('PATCH', `/authors/${authorId}`, { name: text });
      expect(renamed.status).toBe(400);
      expectRefused(await json<ErrorDocument>(renamed), 'name');
      expect((await json<AuthorDocument>(await t.request(`/authors/${authorId}`))).name).toBe(`Well Formed ${what}`);

      const books = await counted('/books');
      const book = await t.send('POST', '/books', { title: text, publication_year: 2000, author_id: authorId });
      expect(book.status).toBe(400);
      expectRefused(await json<ErrorDocument>(book), 'title');
      expect(await counted('/books')).toBe(books);

      const users = await counted('/users');
      const user = await t.send('POST', '/users', { name: text, role: 'member' });
      expect(user.status).toBe(400);
      expectRefused(await json<ErrorDocument>(user), 'name');
      expect(await counted('/users')).toBe(users);
    });
  }

  it('a token label holding a lone surrogate is refused, and no token is made', async () => {
    const created = await t.send('POST', '/users', { name: 'Token Holder', role: 'member' });
    const { id } = await json<UserDocument>(created);
    const token = await t.send('POST', `/users/${id}/tokens`, { name: 'laptop \udfff' });
    expect(token.status).toBe(400);
    expectRefused(await json<ErrorDocument>(token), 'name');
    expect(await counted(`/users/${id}/tokens`)).toBe(0);
  });

  it('the surrogate escape as sent in the JSON text is refused too, and a whole pair is kept', async () => {
    const escaped = await t.send('POST', '/authors', '{"name":"A\\ud800B"}');
    expect(escaped.status).toBe(400);
    expectRefused(await json<ErrorDocument>(escaped), 'name');
    const id = await addAuthor(t, 'Grinning \ud83d\ude00');
    expect((await json<AuthorDocument>(await t.request(`/authors/${id}`))).name).toBe('Grinning \u{1f600}');
  });

  it('a body whose bytes are not UTF-8 is refused rather than read with replacement characters', async () => {
    const authors = await counted('/authors');
    const bytes = Buffer.concat([Buffer.from('{"name":"A'), Buffer.from([0xed, 0xa0, 0x80, 0xff]), Buffer.from('B"}')]);
    const raw = await t.request('/authors', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: bytes,
    });
    expect(raw.status).toBe(400);
    expect((await json<ErrorDocument>(raw)).error).toMatchObject({
      code: 400,
      message: expect.stringMatching(/UTF-8/),
    });
    const form = await t.request('/authors', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'name=A%ED%A0%80B',
    });
    expect(form.status).toBe(400);
    expect((await json<ErrorDocument>(form)).error).toMatchObject({
      code: 400,
      message: expect.stringMatching(/UTF-8/),
    });
    expect(await counted('/authors')).toBe(authors);
    // The replacement character itself, sent as such, is text like any other.
    const id = await addAuthor(t, 'Unknown \ufffd Glyph');
    expect((await json<AuthorDocument>(await t.request(`/authors/${id}`))).name).toBe('Unknown \ufffd Glyph');
  });
});

describe('every text field is one line: control characters are refused', () => {
  /** Rows of a table, to show a refusal wrote nothing. */
  async function counted(path: string): Promise<number> {
    return (await json<PageDoc>(await t.request(`${path}?page=1&per_page=1`))).meta.total_items;
  }

  const controls = {
    'a carriage return and line feed': [
      'Eve\r\nBcc: victim@elsewhere.example',
      'a carriage return (U+000D) at character 4',
    ],
    'a line feed': ['Eve\nX-Injected: yes', 'a line feed (U+000A) at character 4'],
    'a tab': ['Eve\tAdams', 'a tab (U+0009) at character 4'],
    'an escape': ['Eve\u001b[31m', 'a control character (U+001B) at character 4'],
    DEL: ['Eve\u007f', 'the DEL character (U+007F) at character 4'],
    'a C1 next line': ['\u{1F4DA}Eve\u0085', 'a control character (U+0085) at character 5'],
    'a line separator': ['Eve\u2028Adams', 'a line separator (U+2028) at character 4'],
  } as const;

  for (const [what, [text, said]] of Object.entries(controls)) {
    it(`${what} in a user's, author's, branch's, category's or item type's name, a title, a publisher, a subject or a barcode is refused, naming the field`, async () => {
      const message = `must be one line without control characters: ${said}`;
      const refused = async (response: Response, field: string) => {
        expect(response.status).toBe(400);
        expect((await json<ErrorDocument>(response)).error).toMatchObject({ code: 400, details: { [field]: message } });
      };
      const authorId = await addAuthor(t, 'Line Author');
      const bookResponse = await t.send('POST', '/books', {
        title: 'One Line',
        publication_year: 2000,
        author_id: authorId,
      });
      const bookId = (await json<BookDocument>(bookResponse)).id;
      const collections = ['/users', '/authors', '/books', '/branches', '/patron-categories', '/item-types'];
      const everything = () => Promise.all([...collections, `/books/${bookId}/copies`].map(counted));
      const before = await everything();

      await refused(await t.send('POST', '/users', { name: text, role: 'member' }), 'name');
      await refused(await t.send('POST', '/authors', { name: text }), 'name');
      await refused(await t.send('PATCH', `/authors/${authorId}`, { name: text }), 'name');
      await refused(
        await t.send('POST', '/books', { title: text, publication_year: 2000, author_id: authorId }),
        'title',
      );
      await refused(await t.send('PATCH', `/books/${bookId}`, { title: text }), 'title');
      await refused(await t.send('PATCH', `/books/${bookId}`, { publisher: text }), 'publisher');
      const subjects = await t.send('PATCH', `/books/${bookId}`, { subjects: ['Fine', text] });
      expect(subjects.status).toBe(400);
      expect((await json<ErrorDocument>(subjects)).error.details).toEqual({ subjects: `value 2 ${message}` });
      await refused(await t.send('POST', '/branches', { code: 'east-line', name: text }), 'name');
      await refused(await t.send('POST', '/patron-categories', { code: 'line', name: text }), 'name');
      await refused(await t.send('POST', '/item-types', { code: 'line', name: text }), 'name');
      await refused(await t.send('POST', `/books/${bookId}/copies`, { barcode: text }), 'barcode');

      expect(await everything()).toEqual(before);
      expect((await json<AuthorDocument>(await t.request(`/authors/${authorId}`))).name).toBe('Line Author');
      const book = await json<BookDocument & { publisher: string | null; subjects: string[] }>(
        await t.request(`/books/${bookId}`),
      );
      expect(book).toMatchObject({ title: 'One Line', publisher: null, subjects: [] });
    });
  }

  it('visible text around spaces of other kinds is kept: a no-break space is no control character', async () => {
    const id = await addAuthor(t, 'Anne\u00a0Marie Zo\u00eb');
    expect((await json<AuthorDocument>(await t.request(`/authors/${id}`))).name).toBe('Anne\u00a0Marie Zo\u00eb');
  });
});
