/**
 * Every write endpoint and every rule that rejects a write, over HTTP: the status, the exact error shape,
 * and that a rejected write changed nothing (the resource reads back with the same state and ETag, and the
 * collection keeps its size). Ends with a battery of hostile requests that must never cause a 5xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, addBook, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { AuthorDocument, BookDocument, CollectionDocument, PageDoc } from './support/documents.js';
import { expectError } from './support/errors.js';

let t: TestCatalogue;
/** An author who always has books (never deleted), for creating and changing books. */
let writer: number;
/** A second author with books, to move books to. */
let otherWriter: number;
/** An id that was assigned to an author and then freed: it names no author. */
let goneAuthor: number;

beforeAll(async () => {
  t = await openTestCatalogue();
  writer = await addAuthor(t, 'Writes Fixture Author');
  otherWriter = await addAuthor(t, 'Writes Other Author');
  await addBook(t, 'Writes Anchor Book', 1990, writer);
  await addBook(t, 'Writes Other Anchor Book', 1991, otherWriter);
  goneAuthor = await addAuthor(t, 'Writes Vanishing Author');
  expect((await t.request(`/authors/${goneAuthor}`, { method: 'DELETE' })).status).toBe(204);
});
afterAll(() => t.close());

/** Number of items in a collection, from its page envelope. */
async function countOf(collection: '/books' | '/authors'): Promise<number> {
  const response = await t.request(`${collection}?per_page=1`);
  expect(response.status).toBe(200);
  return (await json<PageDoc>(response)).meta.total_items;
}

/** What a resource reads back as: the whole document and its ETag. */
async function snapshot(path: string): Promise<{ etag: string | null; body: unknown }> {
  const response = await t.request(path);
  expect(response.status).toBe(200);
  return { etag: response.headers.get('etag'), body: await json<unknown>(response) };
}

/** Books with exactly this title (a filter on the collection). */
async function booksTitled(title: string): Promise<unknown[]> {
  const response = await t.request(`/books?${new URLSearchParams({ filter: `title:${title}` })}`);
  expect(response.status).toBe(200);
  return json<CollectionDocument<BookDocument>>(response);
}

/** Sends a raw body with the given headers (no Content-Type unless given). */
function raw(method: string, path: string, body: RequestInit['body'], headers: Record<string, string> = {}) {
  return t.request(path, { method, headers, ...(body !== undefined && { body }) });
}

const validBook = (title: string) => ({ title, publication_year: 1999, author_id: writer });

/** Values a book field refuses, with the field `details` must name. */
const invalidBookValues: [label: string, field: string, value: unknown][] = [
  ['title null', 'title', null],
  ['title a number', 'title', 42],
  ['title a boolean', 'title', true],
  ['title an array', 'title', ['Dune']],
  ['title an object', 'title', { text: 'Dune' }],
  ['title empty', 'title', ''],
  ['title a space', 'title', ' '],
  ['title only whitespace', 'title', ' \t\n '],
  ['title 501 characters', 'title', 'x'.repeat(501)],
  ['title 501 astral characters', 'title', '\u{1F4DA}'.repeat(501)],
  ['title with a NUL character', 'title', 'Nul\u0000Title'],
  ['publication_year null', 'publication_year', null],
  ['publication_year as a string', 'publication_year', '1937'],
  ['publication_year fractional', 'publication_year', 1937.5],
  ['publication_year a boolean', 'publication_year', true],
  ['publication_year an array', 'publication_year', [1937]],
  ['publication_year an object', 'publication_year', {}],
  ['publication_year -3001', 'publication_year', -3001],
  ['publication_year 2101', 'publication_year', 2101],
  ['publication_year far beyond integer range', 'publication_year', 1e12],
  ['author_id null', 'author_id', null],
  ['author_id as a string', 'author_id', '1'],
  ['author_id fractional', 'author_id', 1.5],
  ['author_id a boolean', 'author_id', true],
  ['author_id an array', 'author_id', [1]],
  ['author_id 0', 'author_id', 0],
  ['author_id negative', 'author_id', -1],
];

/** Values an author's name refuses. */
const invalidNames: [label: string, value: unknown][] = [
  ['null', null],
  ['a number', 42],
  ['a boolean', false],
  ['an array', ['Homer']],
  ['an object', { first: 'Homer' }],
  ['empty', ''],
  ['a space', ' '],
  ['only whitespace', '\t \n'],
  ['201 characters', 'n'.repeat(201)],
  ['201 astral characters', '\u{1F58B}'.repeat(201)],
  ['with a NUL character', 'Nul\u0000Name'],
];

const malformedJson: [label: string, body: string][] = [
  ['a truncated object', '{"title": "Broken",'],
  ['single quotes', "{'title': 'Broken'}"],
  ['unquoted keys', '{title: "Broken"}'],
  ['a trailing comma', '{"title": "Broken",}'],
  ['a bare word', 'undefined'],
  ['an empty body', ''],
  ['only whitespace', '   \n '],
  ['two objects', '{"title": "A"}{"title": "B"}'],
];

const notAnObject: [label: string, body: string][] = [
  ['an empty array', '[]'],
  ['an array of objects', '[{"title": "In An Array", "publication_year": 2000, "author_id": 1}]'],
  ['a string', '"just a string"'],
  ['a number', '42'],
  ['null', 'null'],
  ['true', 'true'],
];

const notJsonTypes: [label: string, headers: Record<string, string>][] = [
  ['text/plain', { 'Content-Type': 'text/plain' }],
  ['application/xml', { 'Content-Type': 'application/xml' }],
  ['no Content-Type at all', {}],
];

/** A body of exactly `bytes` UTF-8 bytes: the JSON followed by spaces (still valid JSON). */
function paddedJson(value: unknown, bytes: number): string {
  const text = JSON.stringify(value);
  const padding = bytes - Buffer.byteLength(text);
  expect(padding).toBeGreaterThanOrEqual(0);
  return text + ' '.repeat(padding);
}

describe('POST /books', () => {
  it('creates the book: 201, Location, the full book, and one more in the collection', async () => {
    const before = await countOf('/books');
    const response = await t.send('POST', '/books', validBook('Freshly Created Book'));
    expect(response.status).toBe(201);
    const book = await json<BookDocument>(response);
    expect(book).toMatchObject({ title: 'Freshly Created Book', publication_year: 1999, author_id: writer });
    expect(Number.isInteger(book.id)).toBe(true);
    expect(response.headers.get('location')).toBe(`/books/${book.id}`);
    const read = await json<BookDocument>(await t.request(`/books/${book.id}`));
    expect(read).toEqual(book);
    expect(await countOf('/books')).toBe(before + 1);
  });

  it('accepts a Content-Type of application/json with parameters, in any case', async () => {
    for (const [type, title] of [
      ['application/json; charset=utf-8', 'Charset Declared Book'],
      ['Application/JSON', 'Upper Case Type Book'],
    ] as const) {
      const response = await raw('POST', '/books', JSON.stringify(validBook(title)), { 'Content-Type': type });
      expect(response.status).toBe(201);
      expect(await booksTitled(title)).toHaveLength(1);
    }
  });

  it('accepts the boundaries: a title of exactly 500 characters, years -3000 and 2100', async () => {
    const longTitle = `Long${'t'.repeat(496)}`;
    const astralTitle = '\u{1F4DA}'.repeat(500);
    for (const body of [
      { title: longTitle, publication_year: 2000, author_id: writer },
      { title: astralTitle, publication_year: 2000, author_id: writer },
      { title: 'Oldest Possible Book', publication_year: -3000, author_id: writer },
      { title: 'Latest Possible Book', publication_year: 2100, author_id: writer },
    ]) {
      const response = await t.send('POST', '/books', body);
      expect(response.status).toBe(201);
      const created = await json<BookDocument>(response);
      expect(created).toMatchObject(body);
      expect(await json<BookDocument>(await t.request(`/books/${created.id}`))).toMatchObject(body);
    }
  });

  it.each(['title', 'publication_year', 'author_id'])(
    'a body without %s is 400 naming it; nothing is created',
    async (field) => {
      const title = `Missing Field Book ${field}`;
      const body: Record<string, unknown> = validBook(title);
      delete body[field];
      const before = await countOf('/books');
      await expectError(await t.send('POST', '/books', body), 400, { details: [field] });
      expect(await countOf('/books')).toBe(before);
    },
  );

  it('an empty object is 400 naming all three required fields', async () => {
    const before = await countOf('/books');
    await expectError(await t.send('POST', '/books', {}), 400, { details: ['title', 'publication_year', 'author_id'] });
    expect(await countOf('/books')).toBe(before);
  });

  it('unknown fields are 400, each named in details; nothing is created', async () => {
    const before = await countOf('/books');
    const cases: [body: string, keys: string[]][] = [
      [JSON.stringify({ ...validBook('Unknown Field Book'), isbn: '978-0' }), ['isbn']],
      [JSON.stringify({ ...validBook('Unknown Field Book'), id: 12345 }), ['id']],
      [JSON.stringify({ ...validBook('Unknown Field Book'), isbn: 'x', pages: 3 }), ['isbn', 'pages']],
      [
        JSON.stringify({ tittle: 'Unknown Field Book', publication_year: 1999, author_id: writer }),
        ['tittle', 'title'],
      ],
      [
        `{"__proto__": {"admin": true}, "title": "Unknown Field Book", "publication_year": 1999, "author_id": ${writer}}`,
        ['__proto__'],
      ],
      [
        `{"constructor": 1, "title": "Unknown Field Book", "publication_year": 1999, "author_id": ${writer}}`,
        ['constructor'],
      ],
    ];
    for (const [body, keys] of cases) await expectError(await t.send('POST', '/books', body), 400, { details: keys });
    expect(await countOf('/books')).toBe(before);
    expect(await booksTitled('Unknown Field Book')).toEqual([]);
  });

  it.each(invalidBookValues)('%s is 400 naming the field; nothing is created', async (label, field, value) => {
    const title = `Invalid Value Book ${label}`;
    const before = await countOf('/books');
    const body = { ...validBook(title), [field]: value };
    await expectError(await t.send('POST', '/books', body), 400, { details: [field] });
    expect(await countOf('/books')).toBe(before);
  });

  it('reports every offending field at once', async () => {
    const before = await countOf('/books');
    const body = { title: '', publication_year: '1999', author_id: 0, isbn: 'x' };
    await expectError(await t.send('POST', '/books', body), 400, {
      details: ['title', 'publication_year', 'author_id', 'isbn'],
    });
    expect(await countOf('/books')).toBe(before);
  });

  it('an author_id naming no author is 422 with details.author_id; nothing is created', async () => {
    const before = await countOf('/books');
    for (const authorId of [goneAuthor, 2_147_483_647, 2_147_483_648, 1e20]) {
      const body = { title: 'Orphan Book', publication_year: 2000, author_id: authorId };
      await expectError(await t.send('POST', '/books', body), 422, { details: ['author_id'] });
    }
    expect(await countOf('/books')).toBe(before);
    expect(await booksTitled('Orphan Book')).toEqual([]);
  });

  it.each(notJsonTypes)('a body declared as %s is 415 even when it is a valid book', async (_label, headers) => {
    const before = await countOf('/books');
    const body = new TextEncoder().encode(JSON.stringify(validBook('Wrong Media Type Book')));
    // Guard: the request really carries the Content-Type of the case, or none.
    const sent = new Request('http://catalogue.test/books', { method: 'POST', headers, body });
    expect(sent.headers.get('content-type')).toBe(headers['Content-Type'] ?? null);
    await expectError(await raw('POST', '/books', body, headers), 415);
    expect(await countOf('/books')).toBe(before);
    expect(await booksTitled('Wrong Media Type Book')).toEqual([]);
  });

  it.each(malformedJson)('malformed JSON (%s) is 400; nothing is created', async (_label, body) => {
    const before = await countOf('/books');
    await expectError(await t.send('POST', '/books', body), 400);
    expect(await countOf('/books')).toBe(before);
  });

  it.each(notAnObject)('a JSON value that is not an object (%s) is 400; nothing is created', async (_label, body) => {
    const before = await countOf('/books');
    await expectError(await t.send('POST', '/books', body), 400);
    expect(await countOf('/books')).toBe(before);
    expect(await booksTitled('In An Array')).toEqual([]);
  });

  it('a body of exactly 16384 bytes is accepted; 16385 bytes is 413 and creates nothing', async () => {
    const atLimit = paddedJson(validBook('Exactly At The Limit'), 16384);
    expect(Buffer.byteLength(atLimit)).toBe(16384);
    expect((await t.send('POST', '/books', atLimit)).status).toBe(201);
    expect(await booksTitled('Exactly At The Limit')).toHaveLength(1);

    const before = await countOf('/books');
    const overLimit = paddedJson(validBook('One Byte Over The Limit'), 16385);
    await expectError(await t.send('POST', '/books', overLimit), 413);
    expect(await countOf('/books')).toBe(before);
    expect(await booksTitled('One Byte Over The Limit')).toEqual([]);
  });

  it('413 counts bytes, not characters, and comes before validation', async () => {
    const before = await countOf('/books');
    // 9000 two-byte characters: 18000 bytes in fewer than 16384 characters.
    const wide = JSON.stringify({ ...validBook('Wide Characters Book'), note: '\u00e9'.repeat(9000) });
    expect(wide.length).toBeLessThan(16384);
    expect(Buffer.byteLength(wide)).toBeGreaterThan(16384);
    await expectError(await t.send('POST', '/books', wide), 413);
    // A far too long title in a far too large body: the size is what is reported.
    await expectError(await t.send('POST', '/books', validBook('x'.repeat(20000))), 413);
    expect(await countOf('/books')).toBe(before);
  });
});

describe.each(['PUT', 'PATCH'])('%s /books/{id}', (method) => {
  it('changes only the fields sent and answers 200 with the full book', async () => {
    const id = await addBook(t, `Change Me ${method}`, 1950, writer);
    const steps: [Record<string, unknown>, Record<string, unknown>][] = [
      [
        { title: `Changed Title ${method}` },
        { title: `Changed Title ${method}`, publication_year: 1950, author_id: writer },
      ],
      [{ publication_year: 1951 }, { title: `Changed Title ${method}`, publication_year: 1951, author_id: writer }],
      [
        { author_id: otherWriter },
        { title: `Changed Title ${method}`, publication_year: 1951, author_id: otherWriter },
      ],
      [
        { title: `All Changed ${method}`, publication_year: 1952, author_id: writer },
        { title: `All Changed ${method}`, publication_year: 1952, author_id: writer },
      ],
    ];
    for (const [change, expected] of steps) {
      const response = await t.send(method, `/books/${id}`, change);
      expect(response.status).toBe(200);
      const body = await json<BookDocument>(response);
      expect(body).toMatchObject({ id, ...expected });
      expect(await json<BookDocument>(await t.request(`/books/${id}`))).toEqual(body);
    }
  });

  it('accepts the boundaries: title of 500 characters, years -3000 and 2100', async () => {
    const id = await addBook(t, `Boundary Change ${method}`, 2000, writer);
    for (const change of [{ title: 'b'.repeat(500) }, { publication_year: -3000 }, { publication_year: 2100 }]) {
      const response = await t.send(method, `/books/${id}`, change);
      expect(response.status).toBe(200);
      expect(await json<BookDocument>(await t.request(`/books/${id}`))).toMatchObject(change);
    }
  });

  it('an empty object is 400 and changes nothing', async () => {
    const id = await addBook(t, `Empty Change ${method}`, 2000, writer);
    const before = await snapshot(`/books/${id}`);
    await expectError(await t.send(method, `/books/${id}`, {}), 400);
    expect(await snapshot(`/books/${id}`)).toEqual(before);
  });

  it('invalid values are 400 naming the field and change nothing', async () => {
    const id = await addBook(t, `Invalid Change ${method}`, 2000, writer);
    const before = await snapshot(`/books/${id}`);
    for (const [, field, value] of invalidBookValues) {
      await expectError(await t.send(method, `/books/${id}`, { [field]: value }), 400, { details: [field] });
    }
    // A valid change alongside an invalid one is refused as a whole.
    await expectError(await t.send(method, `/books/${id}`, { title: 'Half Applied', publication_year: 2101 }), 400, {
      details: ['publication_year'],
    });
    await expectError(await t.send(method, `/books/${id}`, { title: 'Half Applied', isbn: 'x' }), 400, {
      details: ['isbn'],
    });
    expect(await snapshot(`/books/${id}`)).toEqual(before);
  });

  it('an author_id naming no author is 422 with details.author_id and changes nothing', async () => {
    const id = await addBook(t, `Orphan Change ${method}`, 2000, writer);
    const before = await snapshot(`/books/${id}`);
    for (const authorId of [goneAuthor, 2_147_483_647, 2_147_483_648]) {
      await expectError(await t.send(method, `/books/${id}`, { author_id: authorId }), 422, { details: ['author_id'] });
    }
    await expectError(await t.send(method, `/books/${id}`, { title: 'Half Applied', author_id: goneAuthor }), 422, {
      details: ['author_id'],
    });
    expect(await snapshot(`/books/${id}`)).toEqual(before);
  });

  it('415, malformed JSON, non-objects and 413 change nothing', async () => {
    const id = await addBook(t, `Rejected Body ${method}`, 2000, writer);
    const path = `/books/${id}`;
    const before = await snapshot(path);
    const change = JSON.stringify({ title: 'Should Not Apply' });
    for (const [, headers] of notJsonTypes) {
      await expectError(await raw(method, path, new TextEncoder().encode(change), headers), 415);
    }
    for (const [, body] of [...malformedJson, ...notAnObject]) await expectError(await t.send(method, path, body), 400);
    await expectError(await t.send(method, path, paddedJson({ title: 'Should Not Apply' }, 16385)), 413);
    expect(await snapshot(path)).toEqual(before);
  });

  it('a book that does not exist is 404', async () => {
    await expectError(await t.send(method, '/books/987654', { title: 'Nowhere' }), 404);
    await expectError(await t.send(method, '/books/abc', { title: 'Nowhere' }), 404);
    await expectError(await t.send(method, '/books/0', { title: 'Nowhere' }), 404);
    expect(await booksTitled('Nowhere')).toEqual([]);
  });
});

describe('DELETE /books/{id}', () => {
  it('answers 204 without a body; the book is gone and the collection one smaller', async () => {
    const id = await addBook(t, 'Doomed Book', 2000, writer);
    const before = await countOf('/books');
    const response = await t.request(`/books/${id}`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    await expectError(await t.request(`/books/${id}`), 404);
    expect(await countOf('/books')).toBe(before - 1);
    expect(await booksTitled('Doomed Book')).toEqual([]);
  });

  it('deleting it again, or a book that never existed, is 404 and deletes nothing', async () => {
    const id = await addBook(t, 'Twice Deleted Book', 2000, writer);
    expect((await t.request(`/books/${id}`, { method: 'DELETE' })).status).toBe(204);
    const before = await countOf('/books');
    await expectError(await t.request(`/books/${id}`, { method: 'DELETE' }), 404);
    await expectError(await t.request('/books/876543', { method: 'DELETE' }), 404);
    await expectError(await t.request('/books/abc', { method: 'DELETE' }), 404);
    expect(await countOf('/books')).toBe(before);
  });
});

describe('POST /authors', () => {
  it('creates the author: 201, Location, and the author', async () => {
    const before = await countOf('/authors');
    const response = await t.send('POST', '/authors', { name: 'Freshly Created Author' });
    expect(response.status).toBe(201);
    const author = await json<AuthorDocument>(response);
    expect(author).toMatchObject({ name: 'Freshly Created Author' });
    expect(Number.isInteger(author.id)).toBe(true);
    expect(response.headers.get('location')).toBe(`/authors/${author.id}`);
    expect(await json<AuthorDocument>(await t.request(`/authors/${author.id}`))).toEqual(author);
    expect(await countOf('/authors')).toBe(before + 1);
  });

  it('accepts a name of exactly 200 characters', async () => {
    for (const name of [`Long${'n'.repeat(196)}`, '\u{1F58B}'.repeat(200)]) {
      const response = await t.send('POST', '/authors', { name });
      expect(response.status).toBe(201);
      const { id } = await json<AuthorDocument>(response);
      expect((await json<AuthorDocument>(await t.request(`/authors/${id}`))).name).toBe(name);
    }
  });

  it.each(invalidNames)('a name that is %s is 400 naming it; nothing is created', async (_label, name) => {
    const before = await countOf('/authors');
    await expectError(await t.send('POST', '/authors', { name }), 400, { details: ['name'] });
    expect(await countOf('/authors')).toBe(before);
  });

  it('a missing name and unknown fields are 400 naming them; nothing is created', async () => {
    const before = await countOf('/authors');
    await expectError(await t.send('POST', '/authors', {}), 400, { details: ['name'] });
    await expectError(await t.send('POST', '/authors', { name: 'Unknown Field Author', bio: 'x' }), 400, {
      details: ['bio'],
    });
    await expectError(await t.send('POST', '/authors', { full_name: 'Unknown Field Author' }), 400, {
      details: ['full_name', 'name'],
    });
    expect(await countOf('/authors')).toBe(before);
  });

  it('415, malformed JSON, non-objects and 413 create nothing', async () => {
    const before = await countOf('/authors');
    const body = JSON.stringify({ name: 'Rejected Body Author' });
    for (const [, headers] of notJsonTypes) {
      await expectError(await raw('POST', '/authors', new TextEncoder().encode(body), headers), 415);
    }
    for (const [, text] of [...malformedJson, ...notAnObject]) {
      await expectError(await t.send('POST', '/authors', text), 400);
    }
    await expectError(await t.send('POST', '/authors', paddedJson({ name: 'Rejected Body Author' }, 16385)), 413);
    expect(await countOf('/authors')).toBe(before);
  });
});

describe.each(['PUT', 'PATCH'])('%s /authors/{id}', (method) => {
  it('changes the name and answers 200 with the author', async () => {
    const id = await addAuthor(t, `Renamed Author Before ${method}`);
    const response = await t.send(method, `/authors/${id}`, { name: `Renamed Author After ${method}` });
    expect(response.status).toBe(200);
    const body = await json<AuthorDocument>(response);
    expect(body).toMatchObject({ id, name: `Renamed Author After ${method}` });
    expect(await json<AuthorDocument>(await t.request(`/authors/${id}`))).toEqual(body);
  });

  it('rejects every invalid body with 400, 415 or 413 and changes nothing', async () => {
    const id = await addAuthor(t, `Steadfast Author ${method}`);
    const path = `/authors/${id}`;
    const before = await snapshot(path);
    await expectError(await t.send(method, path, {}), 400);
    for (const [, name] of invalidNames)
      await expectError(await t.send(method, path, { name }), 400, { details: ['name'] });
    await expectError(await t.send(method, path, { name: 'Half Applied', bio: 'x' }), 400, { details: ['bio'] });
    for (const [, headers] of notJsonTypes) {
      await expectError(await raw(method, path, new TextEncoder().encode('{"name":"Should Not Apply"}'), headers), 415);
    }
    for (const [, body] of [...malformedJson, ...notAnObject]) await expectError(await t.send(method, path, body), 400);
    await expectError(await t.send(method, path, paddedJson({ name: 'Should Not Apply' }, 16385)), 413);
    expect(await snapshot(path)).toEqual(before);
  });

  it('an author that does not exist is 404', async () => {
    await expectError(await t.send(method, '/authors/987654', { name: 'Nobody' }), 404);
    await expectError(await t.send(method, '/authors/-3', { name: 'Nobody' }), 404);
  });
});

describe('DELETE /authors/{id}', () => {
  it('is 409 while the author has books (nothing is deleted), 204 once they have none', async () => {
    const author = await addAuthor(t, 'Prolific Author');
    const first = await addBook(t, 'Prolific First Book', 2001, author);
    const second = await addBook(t, 'Prolific Second Book', 2002, author);
    const authorsBefore = await countOf('/authors');
    const authorBefore = await snapshot(`/authors/${author}`);

    await expectError(await t.request(`/authors/${author}`, { method: 'DELETE' }), 409);
    expect(await snapshot(`/authors/${author}`)).toEqual(authorBefore);
    expect(await countOf('/authors')).toBe(authorsBefore);
    const books = await json<{ id: number }[]>(await t.request(`/authors/${author}/books`));
    expect(books.map((b) => b.id).sort((a, b) => a - b)).toEqual([first, second]);

    // One book deleted, one moved to another author: still 409 until the last one is gone.
    expect((await t.request(`/books/${first}`, { method: 'DELETE' })).status).toBe(204);
    await expectError(await t.request(`/authors/${author}`, { method: 'DELETE' }), 409);
    expect((await t.send('PATCH', `/books/${second}`, { author_id: otherWriter })).status).toBe(200);

    const response = await t.request(`/authors/${author}`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    await expectError(await t.request(`/authors/${author}`), 404);
    expect(await countOf('/authors')).toBe(authorsBefore - 1);
    expect(await json<BookDocument>(await t.request(`/books/${second}`))).toMatchObject({ author_id: otherWriter });
  });

  it('an author that does not exist is 404', async () => {
    await expectError(await t.request('/authors/987654', { method: 'DELETE' }), 404);
    await expectError(await t.request(`/authors/${goneAuthor}`, { method: 'DELETE' }), 404);
    await expectError(await t.request('/authors/abc', { method: 'DELETE' }), 404);
  });
});

describe('hostile and malformed requests', () => {
  it('never answer 5xx, and every error is in the error shape', async () => {
    const book = await addBook(t, 'Hostile Target Book', 2000, writer);
    const deepArray = '['.repeat(8000) + ']'.repeat(8000);
    const deepObject = `{"title":"Deep","publication_year":1,"author_id":${writer},"extra":${'{"a":'.repeat(2500)}1${'}'.repeat(2500)}}`;
    const requests: [
      method: string,
      path: string,
      init?: { headers?: Record<string, string>; body?: RequestInit['body'] },
    ][] = [
      // Odd paths.
      ['GET', '/books/%ZZ'],
      ['GET', '/%ZZ'],
      ['GET', '/authors/%ZZ/books'],
      ['GET', '/books/1/../2'],
      ['GET', '/books/..%2F..%2Fetc%2Fpasswd'],
      ['GET', '/books/%00'],
      ['GET', '/books/%F0%9F%93%9A'],
      ['GET', '/books/99999999999999999999999999999'],
      ['GET', '/books/2147483648'],
      ['GET', '/books/1e3'],
      ['GET', '/books/0x10'],
      ['GET', '/books/-1'],
      ['GET', '/books/1.0'],
      ['GET', '/authors/99999999999999999999/books'],
      ['GET', `/books/${book}/author/%ZZ`],
      ['GET', '//books'],
      ['DELETE', '/books/%ZZ'],
      ['PATCH', '/books/99999999999999999999', { body: '{"title":"x"}' }],
      // Query strings: invalid UTF-8 and other oddities.
      ['GET', '/books?query=%FF'],
      ['GET', '/books?query=%E0%A4%A'],
      ['GET', '/books?author=%C0%AF'],
      ['GET', '/books?filter=title:%ED%A0%80'],
      ['GET', '/books?%FF=1'],
      ['GET', '/books?sort=%FE'],
      ['GET', '/books?fields=%80'],
      ['GET', '/books?page=%FF'],
      ['GET', '/books?query=a%00b'],
      ['GET', '/books?author=a%00b'],
      ['GET', '/books?filter=title:a%00b&page=1'],
      ['GET', '/authors?query=a%00b'],
      ['GET', '/books?page=99999999999999999999'],
      ['GET', '/books?page=1e3&per_page=0x10'],
      ['GET', '/books?filter=__proto__:1'],
      ['GET', '/books?filter=constructor:x'],
      ['GET', '/books?sort=constructor'],
      ['GET', '/books?sort=__proto__'],
      ['GET', '/authors?fields=toString'],
      ['GET', '/books?__proto__=1'],
      ['GET', '/books?query=%22unbalanced%20-or%20OR%20%26%20%7C%20!%20(%20%3A*'],
      ['GET', `/books?query=${'a'.repeat(10_240)}`],
      ['GET', `/books?${'filter=title:x&'.repeat(700)}`],
      ['GET', `/books?${'x'.repeat(10_240)}=1`],
      ['GET', `/authors/${writer}/books?${'sort=title&'.repeat(800)}`],
      // Weird headers.
      ['GET', `/books/${book}`, { headers: { Accept: ';;;,,,/' } }],
      ['GET', `/books/${book}`, { headers: { Accept: 'application/json;q=abc' } }],
      ['GET', '/books', { headers: { Accept: `${'x/y, '.repeat(2000)}application/json` } }],
      ['GET', `/books/${book}`, { headers: { 'If-None-Match': 'garbage' } }],
      ['GET', `/books/${book}`, { headers: { 'If-None-Match': ',,,W/' } }],
      [
        'PATCH',
        `/books/${book}`,
        { headers: { 'If-Match': 'W/"1-x", "99999999999-x", "-1-x"' }, body: '{"title":"x"}' },
      ],
      ['PATCH', `/books/${book}`, { headers: { 'If-Match': '"garbage' }, body: '{"title":"x"}' }],
      ['DELETE', `/books/${book}`, { headers: { 'If-Match': '""' } }],
      ['POST', '/books', { headers: { 'Content-Type': ';;;' }, body: '{}' }],
      ['POST', '/books', { headers: { 'Content-Type': 'application/json; charset=ebcdic' }, body: '{}' }],
      [
        'POST',
        '/books',
        { headers: { 'Content-Type': 'application/json' }, body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) },
      ],
      ['GET', '/books', { headers: { 'X-HTTP-Method-Override': 'DELETE', Range: 'bytes=0-1' } }],
      // Hostile bodies.
      ['POST', '/books', { body: deepArray }],
      ['POST', '/books', { body: deepObject }],
      ['POST', '/authors', { body: `{"name":${'['.repeat(5000)}${']'.repeat(5000)}}` }],
      ['POST', '/books', { body: `{"title":"Huge Number","publication_year":1e400,"author_id":${writer}}` }],
      [
        'POST',
        '/books',
        { body: `{"title":"Huge Number","publication_year":2000,"author_id":123456789012345678901234567890}` },
      ],
      ['POST', '/books', { body: `{"title":"Negative Zero","publication_year":-0,"author_id":-0}` }],
      ['POST', '/authors', { body: '{"name":"\\ud800"}' }],
      ['PATCH', `/books/${book}`, { body: '{"title":"\\u0000"}' }],
      ['PUT', `/authors/${writer}`, { body: '{"name":"a\\u0000b"}' }],
      ['POST', '/books', { body: '{"title": "Dup", "title": null}' }],
      ['DELETE', '/books', { body: '{"title":"x"}' }],
      // Unknown methods and routes.
      ['PURGE', '/books'],
      ['FOO', `/books/${book}`],
      ['POST', `/books/${book}`, { body: '{}' }],
      ['POST', '/nowhere', { body: '{}' }],
    ];
    const failures: string[] = [];
    for (const [method, path, init = {}] of requests) {
      const headers = { ...(init.body !== undefined && { 'Content-Type': 'application/json' }), ...init.headers };
      const response = await t.request(path, { method, headers, ...(init.body !== undefined && { body: init.body }) });
      const label = `${method} ${path.slice(0, 80)}`;
      if (response.status >= 500) failures.push(`${label}: ${response.status} ${await response.text()}`);
      else if (response.status >= 400) {
        const body = await expectError(response, response.status);
        if (body.error.code !== response.status) failures.push(`${label}: code ${body.error.code}`);
      }
    }
    expect(failures).toEqual([]);
    // The service still answers normally afterwards.
    expect((await t.request('/')).status).toBe(200);
    expect((await t.request(`/books/${book}`)).status).toBe(200);
  });
});
