/**
 * A book's bibliographic fields over HTTP: ISBN (ISBN-10 or -13 in, ISBN-13 out, check digits, one book per
 * ISBN even under concurrent creates), language (ISO 639 in, 639-2/B out), subjects (trimmed, each once,
 * bounded) and publisher; optional on create, changed and cleared with PUT and PATCH; a bare ISBN searched
 * finds its book first; `filter=isbn:`, `language:` and `subject:`; the language and subject facets.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { type BookDocument, type ChangesPageDocument, linkOf, type PageDoc } from './support/documents.js';
import { expectError } from './support/errors.js';

// The Hobbit's ISBN-10 and the ISBN-13 it is (the same check digit arithmetic every ISBN tool does).
const HOBBIT_10 = '0-261-10221-4';
const HOBBIT_13 = '9780261102217';
const PRIDE_13 = '9780141439518';

interface BookBody {
  id: number;
  title: string;
  isbn: string | null;
  language: string | null;
  subjects: string[];
  publisher: string | null;
}

describe('bibliographic fields of a book', () => {
  let t: TestCatalogue;
  let author: number;

  beforeAll(async () => {
    t = await openTestCatalogue();
    author = await addAuthor(t, 'J. R. R. Tolkien');
  });
  afterAll(async () => {
    await t.close();
  });

  async function create(fields: Record<string, unknown>, title = 'The Hobbit'): Promise<Response> {
    return t.send('POST', '/books', { title, publication_year: 1937, author_id: author, ...fields });
  }

  async function created(fields: Record<string, unknown>, title?: string): Promise<BookBody> {
    const response = await create(fields, title);
    expect(response.status, await response.clone().text()).toBe(201);
    return json<BookBody>(response);
  }

  it('are optional: a book created with the seed’s three fields has none of them', async () => {
    const book = await created({}, 'Farmer Giles of Ham');
    expect(book).toMatchObject({ isbn: null, language: null, subjects: [], publisher: null });
    const read = await json<BookBody>(await t.request(`/books/${book.id}`));
    expect(read).toMatchObject({ isbn: null, language: null, subjects: [], publisher: null });
  });

  it('store an ISBN-10 or ISBN-13 typed with hyphens or spaces as ISBN-13, and a language as ISO 639-2/B', async () => {
    const book = await created({
      isbn: HOBBIT_10,
      language: 'EN',
      subjects: ['  Fantasy fiction ', 'Dragons', 'fantasy fiction'],
      publisher: 'George Allen & Unwin',
    });
    expect(book).toMatchObject({
      isbn: HOBBIT_13,
      language: 'eng',
      subjects: ['Fantasy fiction', 'Dragons'],
      publisher: 'George Allen & Unwin',
    });
    const again = await created({ isbn: '978 0 14 143951 8', language: 'deu' }, 'Pride and Prejudice');
    expect(again).toMatchObject({ isbn: PRIDE_13, language: 'ger' });
  });

  it('refuse a wrong check digit, a malformed ISBN and an unknown language with 400 naming the field', async () => {
    for (const isbn of ['0-261-10221-5', '9780261102218', '12345', 'ISBN 0261102214', '978026110221X', 42]) {
      await expectError(await create({ isbn }, 'Refused'), 400, { details: ['isbn'], what: String(isbn) });
    }
    await expectError(await create({ language: 'english' }), 400, { details: ['language'] });
    await expectError(await create({ language: 'xx' }), 400, { details: ['language'] });
    const listed = await json<PageDoc<BookDocument>>(await t.request('/books?filter=title:Refused&per_page=1'));
    expect(listed.meta.total_items).toBe(0);
  });

  it('bound subjects: a list of at most 20 headings of at most 200 characters, none blank', async () => {
    const many = Array.from({ length: 21 }, (_, i) => `Subject ${i}`);
    await expectError(await create({ subjects: many }), 400, { details: ['subjects'] });
    await expectError(await create({ subjects: ['x'.repeat(201)] }), 400, { details: ['subjects'] });
    await expectError(await create({ subjects: ['Fantasy', ' '] }), 400, { details: ['subjects'] });
    await expectError(await create({ subjects: 'Fantasy' }), 400, { details: ['subjects'] });
    await expectError(await create({ subjects: [7] }), 400, { details: ['subjects'] });
    await expectError(await create({ publisher: '' }), 400, { details: ['publisher'] });
  });

  it('keep headings with quotes, commas, braces and backslashes as sent, in a book, a page and the stream', async () => {
    const subjects = ['Quotes "here", and commas', '{braces}', 'back\\slash', 'NULL', 'Zoë'];
    const book = await created({ subjects }, 'Punctuated');
    expect(book.subjects).toEqual(subjects);
    const page = await json<PageDoc<BookDocument>>(await t.request('/books?filter=title:Punctuated&per_page=1'));
    expect(page.data[0]?.subjects).toEqual(subjects);
    const streamed = await json<BookBody[]>(await t.request('/books?filter=title:Punctuated'));
    expect(streamed[0]?.subjects).toEqual(subjects);
    const narrowed = await json<PageDoc<BookDocument>>(
      await t.request(`/books?filter=${encodeURIComponent('subject:{braces}')}&per_page=1`),
    );
    expect(narrowed.data.map((b: BookBody) => b.title)).toEqual(['Punctuated']);
  });

  it('change with PUT and PATCH, and clear with null', async () => {
    const book = await created({ isbn: '9780007525492', language: 'en', subjects: ['Dragons'], publisher: 'X' }, 'C');
    const patched = await t.send('PATCH', `/books/${book.id}`, { language: 'fr', subjects: ['Fées', 'Dragons'] });
    expect(patched.status).toBe(200);
    expect(await json<BookDocument>(patched)).toMatchObject({
      isbn: '9780007525492',
      language: 'fre',
      subjects: ['Fées', 'Dragons'],
    });
    const put = await t.send('PUT', `/books/${book.id}`, { isbn: null, subjects: null, publisher: null });
    expect(put.status).toBe(200);
    expect(await json<BookDocument>(put)).toMatchObject({
      title: 'C',
      isbn: null,
      language: 'fre',
      subjects: [],
      publisher: null,
    });
    await expectError(await t.send('PATCH', `/books/${book.id}`, { title: null }), 400, { details: ['title'] });
  });

  it('are a change of the book: changing one alone is a book.updated in the change feed', async () => {
    const book = await created({}, 'Fed');
    const start = await json<ChangesPageDocument>(await t.request('/changes?from=now'));
    const next = linkOf(start, 'next').href;
    await t.send('PATCH', `/books/${book.id}`, { subjects: ['Feeds'] });
    const events = await json<ChangesPageDocument>(await t.request(next));
    expect(events.data.map((e: { type: string; links: { href: string }[] }) => [e.type, e.links[0]?.href])).toEqual([
      ['book.updated', `/books/${book.id}`],
    ]);
  });

  it('give one ISBN to one book: a second is 409 naming isbn, by create or by change', async () => {
    const first = await created({ isbn: '9780261103252' }, 'The Lord of the Rings');
    await expectError(await create({ isbn: '0-261-10325-3' }, 'Another'), 409, { details: ['isbn'] });
    const other = await created({}, 'Another');
    await expectError(await t.send('PATCH', `/books/${other.id}`, { isbn: '9780261103252' }), 409, {
      details: ['isbn'],
    });
    expect((await json<BookBody>(await t.request(`/books/${first.id}`))).isbn).toBe('9780261103252');
  });

  it('lets exactly one of concurrent creates with the same ISBN win', async () => {
    const isbn = '9780261102385';
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create({ isbn: i % 2 ? isbn : '0261102389' }, `Race ${i}`)),
    );
    const statuses = answers.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const response of answers.filter((r) => r.status === 409)) {
      await expectError(response, 409, { details: ['isbn'] });
    }
    const listed = await json<PageDoc<BookDocument>>(await t.request(`/books?filter=isbn:${isbn}&per_page=10`));
    expect(listed.meta.total_items).toBe(1);
  });

  it('find a book by a bare ISBN typed into query, hyphenated or not, first', async () => {
    // A book whose title has the number's words ranks below the one the ISBN names.
    const decoy = await created({}, 'Notes on 0 261 10221 4');
    for (const query of [HOBBIT_13, HOBBIT_10, '978-0-261-10221-7', '0261102214']) {
      const page = await json<PageDoc<BookDocument>>(
        await t.request(`/books?query=${encodeURIComponent(query)}&per_page=5`),
      );
      expect(page.data[0]?.isbn, query).toBe(HOBBIT_13);
      expect(page.data[0]?.title, query).toBe('The Hobbit');
    }
    const page = await json<PageDoc<BookDocument>>(
      await t.request(`/books?query=${encodeURIComponent(HOBBIT_10)}&per_page=5`),
    );
    expect(page.data.map((b: BookBody) => b.id)).toContain(decoy.id);
  });

  it('are typed into the HTML form: a list one heading a line, and an emptied field cleared by a change', async () => {
    const form = { 'Content-Type': 'application/x-www-form-urlencoded' };
    const body = new URLSearchParams({
      title: 'Formed',
      publication_year: '1954',
      author_id: String(author),
      isbn: '978-0-00-752549-2',
      language: '',
      subjects: 'Quests\r\n\r\n  Rings \r\n',
      publisher: 'Allen & Unwin',
    });
    const created = await t.request('/books', { method: 'POST', headers: form, body });
    expect(created.status).toBe(201);
    const book = await json<BookBody>(created);
    expect(book).toMatchObject({ isbn: '9780007525492', language: null, subjects: ['Quests', 'Rings'] });
    const html = await (await t.request(`/books/${book.id}`, { headers: { Accept: 'text/html' } })).text();
    expect(html).toContain('<dt>ISBN</dt><dd data-field="isbn">9780007525492</dd>');
    expect(html).toContain('<dd data-field="subjects">Quests; Rings</dd>');
    expect(html).toContain('<dd data-field="publisher">Allen &amp; Unwin</dd>');
    expect(html).toMatch(
      /<textarea id="control-edit-subjects" name="subjects"[^>]*data-multiple=""[^>]*>Quests\nRings<\/textarea>/,
    );
    const cleared = await t.request(`/books/${book.id}`, {
      method: 'POST',
      headers: form,
      body: '_method=PATCH&isbn=&subjects=&language=it&publisher=Allen+%26+Unwin',
    });
    expect(cleared.status).toBe(200);
    expect(await json<BookDocument>(cleared)).toMatchObject({
      isbn: null,
      subjects: [],
      language: 'ita',
      publisher: 'Allen & Unwin',
    });
  });

  it('are shown to agents by MCP: the fields in the book’s document, and what each control field takes', async () => {
    const found = await json<PageDoc<BookDocument>>(await t.request(`/books?filter=isbn:${HOBBIT_13}&per_page=1`));
    const hobbit = found.data[0] as BookBody;
    // An agent's client, speaking to the app in process as the librarian.
    const client = new Client({ name: 'bibliographic-fields-test', version: '1.0.0' });
    const inProcess = (url: string | URL, init?: RequestInit) => {
      const { pathname, search } = new URL(url);
      return t.request(`${pathname}${search}`, init);
    };
    await client.connect(new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), { fetch: inProcess }));
    const result = await client.callTool({ name: 'get', arguments: { url: `/books/${hobbit.id}` } });
    await client.close();
    const text = (result.content as { type: string; text: string }[]).map((c) => c.text).join('\n');
    expect(text).toContain(HOBBIT_13);
    expect(text).toContain('Dragons');
    expect(text).toMatch(/isbn string, format isbn, null clears it/);
    expect(text).toMatch(/subjects list of string, at most 20 values, null clears it, at most 200 characters/);
  });

  it('filter by isbn (normalised like the field), language and subject', async () => {
    for (const value of [HOBBIT_13, HOBBIT_10, '0261102214']) {
      const page = await json<PageDoc<BookDocument>>(
        await t.request(`/books?filter=${encodeURIComponent(`isbn:${value}`)}&per_page=5`),
      );
      expect(
        page.data.map((b: BookBody) => b.title),
        value,
      ).toEqual(['The Hobbit']);
    }
    const german = await json<PageDoc<BookDocument>>(await t.request('/books?filter=language:de&per_page=5'));
    expect(german.data.map((b: BookBody) => b.title)).toEqual(['Pride and Prejudice']);
    const dragons = await json<PageDoc<BookDocument>>(
      await t.request(`/books?filter=${encodeURIComponent('subject:Dragons')}&per_page=5`),
    );
    expect(dragons.data.map((b: BookBody) => b.title)).toEqual(['The Hobbit']);
    await expectError(await t.request('/books?filter=isbn:0261102215'), 400, { details: ['filter'] });
    await expectError(await t.request('/books?filter=language:zz'), 400, { details: ['filter'] });
  });
});

interface FacetValue {
  value: string;
  label: string;
  count: number;
  chosen: boolean;
  href: string;
}
interface Page {
  data: BookBody[];
  meta: { total_items: number; total_items_estimated?: true };
  facets: { name: string; title: string; values: FacetValue[]; estimated?: true }[];
}

describe('the language and subject facets', () => {
  let t: TestCatalogue;

  beforeAll(async () => {
    t = await openTestCatalogue({ listingCountLimit: 6 });
    const author = await addAuthor(t, 'Ursula K. Le Guin');
    const books: [string, string | null, string[]][] = [
      ['A Wizard of Earthsea', 'en', ['Fantasy fiction', 'Wizards']],
      ['The Tombs of Atuan', 'en', ['Fantasy fiction']],
      ['The Farthest Shore', 'en', ['Fantasy fiction', 'Wizards', 'Dragons']],
      ['Tehanu', 'en', ['Fantasy fiction', 'Dragons']],
      ['Terremer', 'fr', ['Fantasy fiction']],
      ['The Dispossessed', null, ['Utopias']],
    ];
    for (const [title, language, subjects] of books) {
      const response = await t.send('POST', '/books', {
        title,
        publication_year: 1970,
        author_id: author,
        ...(language && { language }),
        subjects,
      });
      expect(response.status).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  async function page(path: string): Promise<Page> {
    const response = await t.request(path);
    expect(response.status, path).toBe(200);
    return json<Page>(response);
  }

  const facet = (body: Page, name: string) => body.facets.find((f) => f.name === name);

  it('count languages by name and subjects by heading, most first; books without a language are not a value', async () => {
    const body = await page('/books?facets=language,subject');
    expect(facet(body, 'language')).toMatchObject({ title: 'Language' });
    expect(facet(body, 'language')?.values.map((v) => [v.value, v.label, v.count])).toEqual([
      ['eng', 'English', 4],
      ['fre', 'French', 1],
    ]);
    expect(facet(body, 'subject')?.values.map((v) => [v.label, v.count])).toEqual([
      ['Fantasy fiction', 5],
      ['Dragons', 2],
      ['Wizards', 2],
      ['Utopias', 1],
    ]);
    expect(body.meta.total_items).toBe(6);
  });

  it('link each value to the listing narrowed to it, whose total is the count, and the chosen value back out', async () => {
    const body = await page('/books?facets=language,subject,author');
    for (const name of ['language', 'subject']) {
      for (const value of facet(body, name)?.values ?? []) {
        const narrowed = await page(value.href);
        expect(narrowed.meta.total_items, value.href).toBe(value.count);
        const chosen = facet(narrowed, name)?.values.find((v) => v.value === value.value);
        expect(chosen, value.href).toMatchObject({ chosen: true, count: value.count });
        const back = await page(chosen?.href as string);
        expect(back.meta.total_items).toBe(6);
      }
    }
    const dragons = await page(facet(body, 'subject')?.values.find((v) => v.label === 'Dragons')?.href as string);
    expect(dragons.data.map((b) => b.title).sort()).toEqual(['Tehanu', 'The Farthest Shore']);
    // Within the narrowed listing, the other facets count only its books.
    expect(facet(dragons, 'language')?.values.map((v) => [v.label, v.count])).toEqual([['English', 2]]);
  });

  it('show a chosen subject no book of the search has, counted 0, to remove it', async () => {
    const body = await page(`/books?query=tehanu&filter=${encodeURIComponent('subject:Utopias')}&facets=subject`);
    expect(body.meta.total_items).toBe(0);
    expect(facet(body, 'subject')?.values).toEqual([
      expect.objectContaining({ value: 'Utopias', label: 'Utopias', count: 0, chosen: true }),
    ]);
  });

  it('are counted only when asked for, and marked estimated past the count limit', async () => {
    await expectError(await t.request('/books?facets=subjects'), 400, { details: ['facets'] });
    const body = await page('/books?facets=subject&per_page=1');
    // Six books and a count limit of six: exact. One more is past it.
    expect(facet(body, 'subject')?.estimated).toBeUndefined();
    const author = await addAuthor(t, 'Another');
    await t.send('POST', '/books', { title: 'More', publication_year: 1990, author_id: author, subjects: ['Dragons'] });
    const past = await page('/books?filter=decade:1970&filter=decade:1990&facets=subject,language&per_page=1');
    expect(facet(past, 'subject')?.estimated).toBe(true);
    expect(facet(past, 'language')?.estimated).toBe(true);
  });
});

describe('the sample catalogue’s records', () => {
  let t: TestCatalogue;

  beforeAll(async () => {
    t = await openTestCatalogue({ seedSample: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('give every book its work’s language, and well-known editions their real ISBN, publisher and subjects', async () => {
    const all = await json<BookBody[]>(await t.request('/books'));
    expect(all.every((book) => typeof book.language === 'string' && book.language.length === 3)).toBe(true);
    const pride = all.find((book) => book.title === 'Pride and Prejudice');
    expect(pride).toMatchObject({ isbn: PRIDE_13, language: 'eng', publisher: 'Penguin Classics' });
    expect(pride?.subjects).toContain('Courtship -- Fiction');
    const found = await json<PageDoc<BookDocument>>(await t.request('/books?query=0-14-143951-3&per_page=3'));
    expect(found.data[0]?.title).toBe('Pride and Prejudice');
    const japanese = await json<PageDoc<BookDocument>>(
      await t.request('/books?filter=language:ja&facets=language&per_page=1'),
    );
    expect(japanese.facets?.[0]?.values).toEqual([expect.objectContaining({ value: 'jpn', label: 'Japanese' })]);
    expect(japanese.meta.total_items).toBe(japanese.facets?.[0]?.values[0]?.count);
    // A language is named as people name it: Spanish, where the standard's list says "Spanish; Castilian".
    const spanish = await json<PageDoc<BookDocument>>(
      await t.request('/books?filter=language:spa&facets=language&per_page=1'),
    );
    expect(spanish.facets?.[0]?.values).toEqual([expect.objectContaining({ value: 'spa', label: 'Spanish' })]);
  });
});
