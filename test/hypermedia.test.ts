/**
 * The hypermedia of the JSON format: the root document, the links and typed controls of books, authors
 * and pages, a client that only follows links and submits controls, and absolute hrefs behind a proxy.
 */
import { parse } from 'uri-template';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controls as controlVocabulary, rels as relVocabulary } from '../src/hypermedia/vocabulary.js';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  linkHref,
  openTestCatalogue,
  type TestCatalogue,
  type TestClient,
} from './support/catalogue.js';
import {
  type AuthorDocument,
  type BookDocument,
  type CollectionDocument,
  type ControlDoc,
  type Doc,
  type Document,
  type FieldDoc,
  type HalDocument,
  type LinkDoc,
  linkHeader,
  type Member,
  type PageDoc,
  present,
  remoteOptions,
  submit,
} from './support/documents.js';

const knownRels = new Set(Object.keys(relVocabulary));
const knownControls = new Set(Object.keys(controlVocabulary));

/** Every rel (body and `Link` header) and control name in a response must come from the vocabulary. */
function expectVocabulary(body: unknown, response?: Response): void {
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(walk);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (Array.isArray(record.links)) {
      for (const link of record.links as LinkDoc[]) expect(knownRels, `rel ${link.rel}`).toContain(link.rel);
    }
    if (record.controls && typeof record.controls === 'object') {
      for (const name of Object.keys(record.controls)) expect(knownControls, `control ${name}`).toContain(name);
    }
    for (const child of Object.values(record)) walk(child);
  };
  walk(body);
  for (const { rel } of response ? linkHeader(response) : []) {
    expect(knownRels, `Link header rel ${rel}`).toContain(rel);
  }
}

/** GETs a document (as this client: the librarian by default), checks its vocabulary, and answers it. */
async function fetchDoc<T = Doc>(t: TestClient, href: string, expectedStatus = 200): Promise<T> {
  const response = await t.request(href);
  expect(response.status, `GET ${href}`).toBe(expectedStatus);
  const body = await json<T>(response);
  expectVocabulary(body, response);
  return body;
}

/** The link with this rel, which must exist. */
function link(doc: { links: LinkDoc[] }, rel: string): string {
  const href = linkHref(doc, rel);
  expect(href, `link ${rel} in ${JSON.stringify(doc.links)}`).toBeDefined();
  return href as string;
}

/** The control with this name, which must exist. */
function control(doc: { controls: Record<string, ControlDoc> }, name: string): ControlDoc {
  expect(Object.keys(doc.controls)).toContain(name);
  return doc.controls[name] as ControlDoc;
}

/** A field of a control by name. */
function field(c: ControlDoc, name: string): FieldDoc {
  const found = c.fields.find((f) => f.name === name);
  expect(found, `field ${name} of ${c.method} ${c.href}`).toBeDefined();
  return found as FieldDoc;
}

/** The id of the librarian every test catalogue starts with (`CATALOGUE_ADMIN_TOKEN`'s "Administrator"). */
async function librarianId(t: TestCatalogue): Promise<number> {
  const response = await t.request('/users?filter=name:Administrator');
  expect(response.status).toBe(200);
  const found = await json<{ id: number; role: string }[]>(response);
  expect(found).toHaveLength(1);
  expect(found[0]?.role).toBe('librarian');
  return found[0]?.id as number;
}

/** The root's last links, for every caller: what the API's names mean, its OpenAPI description, MCP. */
const descriptions = [
  { rel: 'profile', href: '/profile' },
  { rel: 'service-desc', href: '/openapi.json' },
  { rel: 'mcp', href: '/mcp' },
];

/** Links as `{rel, href}` (plus `templated` when set), to compare exactly. */
function linkPairs(doc: { links: LinkDoc[] }) {
  return doc.links.map((l) => ({ rel: l.rel, href: l.href, ...(l.templated && { templated: true }) }));
}

const searchFieldTypes = [
  ['query', 'string'],
  ['author', 'string'],
  ['filter', 'string'],
  ['sort', 'string'],
  ['page', 'integer'],
  ['per_page', 'integer'],
  ['fields', 'string'],
  ['facets', 'string'],
];

describe('hypermedia (path-absolute hrefs)', () => {
  let t: TestCatalogue;

  beforeAll(async () => {
    t = await openTestCatalogue();
  });
  afterAll(() => t.close());

  describe('the root document', () => {
    it('links self, books, authors and the templated search, exactly, for an anonymous caller', async () => {
      const root = await fetchDoc(t.anonymous, '/');
      expect(linkPairs(root)).toEqual([
        { rel: 'self', href: '/' },
        { rel: 'books', href: '/books?page=1&per_page=20' },
        { rel: 'authors', href: '/authors?page=1&per_page=20' },
        { rel: 'search', href: '/books{?query,author,filter*,sort,page,per_page,fields,facets}', templated: true },
        { rel: 'suggestions', href: '/suggestions{?query}', templated: true },
        { rel: 'changes', href: '/changes' },
        { rel: 'oai-pmh', href: '/oai' },
        { rel: 'sru', href: '/sru' },
        ...descriptions,
      ]);
    });

    it('adds me, my account, loans and branches for a member, exactly', async () => {
      const member = await addUser(t, 'Rootwise Member');
      const root = await fetchDoc(t.as(member.token), '/');
      expect(linkPairs(root)).toEqual([
        { rel: 'self', href: '/' },
        { rel: 'books', href: '/books?page=1&per_page=20' },
        { rel: 'authors', href: '/authors?page=1&per_page=20' },
        { rel: 'search', href: '/books{?query,author,filter*,sort,page,per_page,fields,facets}', templated: true },
        { rel: 'suggestions', href: '/suggestions{?query}', templated: true },
        { rel: 'changes', href: '/changes' },
        { rel: 'oai-pmh', href: '/oai' },
        { rel: 'sru', href: '/sru' },
        { rel: 'me', href: `/users/${member.id}` },
        { rel: 'my_account', href: '/me' },
        { rel: 'loans', href: '/loans?page=1&per_page=20' },
        { rel: 'branches', href: '/branches?page=1&per_page=20' },
        ...descriptions,
      ]);
      const me = await fetchDoc(t.as(member.token), link(root, 'me'));
      expect(me).toMatchObject({ id: member.id, name: 'Rootwise Member', role: 'member' });
    });

    it('adds me, my account, loans, overdue, the desk, users and the lending lists and rules for a librarian, exactly', async () => {
      const id = await librarianId(t);
      const root = await fetchDoc(t, '/');
      expect(linkPairs(root)).toEqual([
        { rel: 'self', href: '/' },
        { rel: 'books', href: '/books?page=1&per_page=20' },
        { rel: 'authors', href: '/authors?page=1&per_page=20' },
        { rel: 'search', href: '/books{?query,author,filter*,sort,page,per_page,fields,facets}', templated: true },
        { rel: 'suggestions', href: '/suggestions{?query}', templated: true },
        { rel: 'changes', href: '/changes' },
        { rel: 'oai-pmh', href: '/oai' },
        { rel: 'sru', href: '/sru' },
        { rel: 'me', href: `/users/${id}` },
        { rel: 'my_account', href: '/me' },
        { rel: 'loans', href: '/loans?page=1&per_page=20' },
        { rel: 'overdue', href: '/loans?filter=status%3Aoverdue&page=1&per_page=20' },
        { rel: 'desk', href: '/desk' },
        { rel: 'users', href: '/users?page=1&per_page=20' },
        { rel: 'branches', href: '/branches?page=1&per_page=20' },
        { rel: 'patron_categories', href: '/patron-categories?page=1&per_page=20' },
        { rel: 'item_types', href: '/item-types?page=1&per_page=20' },
        { rel: 'loan_rules', href: '/loan-rules?page=1&per_page=20' },
        ...descriptions,
      ]);
      const me = await fetchDoc(t, link(root, 'me'));
      expect(me).toMatchObject({ id, name: 'Administrator', role: 'librarian' });
    });

    it('offers only a search control: GET /books with the typed listing parameters', async () => {
      const root = await fetchDoc(t, '/');
      expect(Object.keys(root.controls)).toEqual(['search']);
      const search = control(root, 'search');
      expect(search.method).toBe('GET');
      expect(search.href).toBe('/books');
      expect(search.fields.map((f) => [f.name, f.type])).toEqual(searchFieldTypes);
      expect(search.fields.every((f) => f.required === false)).toBe(true);
      expect(field(search, 'page')).toMatchObject({ min: 1 });
      expect(field(search, 'per_page')).toMatchObject({ min: 1, max: 100 });
    });

    it('the search control, submitted with its fields as query parameters, searches books', async () => {
      const author = await addAuthor(t, 'Rootsearch Quimbleton');
      const id = await addBook(t, 'Zephyrine Marshlands', 1931, author);
      const root = await fetchDoc(t, '/');
      const search = control(root, 'search');
      const params = new URLSearchParams({ query: 'zephyrine', per_page: '5' });
      const page = await fetchDoc<PageDoc<BookDocument>>(t, `${search.href}?${params}`);
      expect(page.data.map((b: { id: number }) => b.id)).toEqual([id]);
      expect(page.meta).toEqual({ page: 1, per_page: 5, total_pages: 1, total_items: 1 });
    });

    it('every templated link, expanded with lists as RFC 6570 does, is a request the listing accepts', async () => {
      const author = await addAuthor(t, 'Templata Expandwell');
      const first = await addBook(t, 'Expansion of Filters', 1811, author);
      const second = await addBook(t, 'Expansion of Lists', 1813, author);
      const root = await fetchDoc(t, '/');
      const templated = root.links.filter((l) => l.templated);
      expect(templated.map((l) => l.rel)).toEqual(['search', 'suggestions']);
      for (const l of templated) {
        const href = parse(l.href).expand({
          query: 'expansion',
          author: 'Expandwell',
          filter: ['publication_year:1811', 'publication_year:1813'],
          sort: 'title',
          page: 1,
          per_page: 5,
          fields: 'id,title',
        });
        const response = await t.request(href);
        expect(response.status, href).toBe(200);
        // A page of books, or the suggestions (which have no id): either way members with links.
        const { data } = await json<{ data: Member<Document<{ id?: number }>>[] }>(response);
        if (l.rel === 'suggestions') {
          expect(href).toBe('/suggestions?query=expansion');
          const books = data.map((s: { links: { href: string }[] }) => s.links[0]?.href);
          expect(books.sort()).toEqual([`/books/${first}`, `/books/${second}`].sort());
          continue;
        }
        expect(href).toContain('filter=publication_year%3A1811&filter=publication_year%3A1813');
        expect(data.map((b) => b.id)).toEqual([first, second]);
      }
    });
  });

  describe('a book', () => {
    it('links self, author, collection, copies and (for a librarian) holds', async () => {
      const author = await addAuthor(t, 'Bookling Ashgrove');
      const id = await addBook(t, 'Linked Lanterns', 1962, author);
      const book = await fetchDoc(t, `/books/${id}`);
      expect(linkPairs(book)).toEqual([
        { rel: 'self', href: `/books/${id}` },
        { rel: 'author', href: `/authors/${author}` },
        { rel: 'collection', href: '/books?page=1&per_page=20' },
        { rel: 'copies', href: `/books/${id}/copies?page=1&per_page=20` },
        { rel: 'holds', href: `/books/${id}/holds?page=1&per_page=20` },
        { rel: 'explain', href: `/books/${id}/explain` },
      ]);
    });

    it('shows its availability: available, no due date, while nobody has borrowed it', async () => {
      const author = await addAuthor(t, 'Availa Brookside');
      const id = await addBook(t, 'Available Avenues', 1966, author);
      const book = await fetchDoc(t.anonymous, `/books/${id}`);
      expect(book).toMatchObject({ id, available: true, due_at: null });
    });

    it('offers an anonymous caller no controls', async () => {
      const author = await addAuthor(t, 'Anonyma Quietwater');
      const id = await addBook(t, 'Unsigned Uplands', 1958, author);
      const book = await fetchDoc(t.anonymous, `/books/${id}`);
      expect(book.controls).toEqual({});
    });

    it('offers the librarian borrow with an optional borrower_id chosen from the users and copy_id from the copies on the shelf', async () => {
      const author = await addAuthor(t, 'Lendwell Ashcombe');
      const id = await addBook(t, 'Lent Lowlands', 1969, author);
      const book = await fetchDoc(t, `/books/${id}`);
      const borrow = control(book, 'borrow');
      expect(borrow).toMatchObject({ href: `/books/${id}/borrow`, method: 'POST', contentType: 'application/json' });
      expect(borrow.fields).toEqual([
        expect.objectContaining({
          name: 'borrower_id',
          type: 'integer',
          required: false,
          min: 1,
          options: { href: expect.stringMatching(/^\/users(\?|$)/), valueField: 'id', promptField: 'name' },
        }),
        expect.objectContaining({
          name: 'copy_id',
          type: 'integer',
          required: false,
          min: 1,
          options: {
            href: `/books/${id}/copies?filter=status%3Aavailable&fields=id%2Clabel`,
            valueField: 'id',
            promptField: 'label',
          },
        }),
        // The desk lending it: the librarian's home branch unless named.
        expect.objectContaining({ name: 'branch_id', type: 'integer', required: false }),
      ]);
      expect(borrow.fields[0]?.value).toBeUndefined();
      expect(borrow.fields[1]?.value).toBeUndefined();
      const response = await t.request(remoteOptions(borrow.fields[0])?.href as string);
      expect(response.status).toBe(200);
      const users = await json<{ id: number; name: string }[]>(response);
      expectVocabulary(users, response);
      expect(users).toContainEqual(expect.objectContaining({ id: await librarianId(t), name: 'Administrator' }));
      // The copy options: the book's one copy, on the shelf.
      const copiesResponse = await t.request(remoteOptions(borrow.fields[1])?.href as string);
      expect(copiesResponse.status).toBe(200);
      const copies = await json<{ id: number; label: string }[]>(copiesResponse);
      expectVocabulary(copies, copiesResponse);
      // Added with the book, without a barcode: named by its number, so a person can still pick it.
      expect(copies).toEqual([
        expect.objectContaining({ id: expect.any(Number), label: expect.stringMatching(/^Copy \d+$/) }),
      ]);
    });

    it('offers update (PUT), edit (PATCH) and delete (DELETE) with typed fields and current values', async () => {
      const author = await addAuthor(t, 'Controlla Birchwood');
      const id = await addBook(t, 'Controlled Currents', 1971, author);
      const book = await fetchDoc(t, `/books/${id}`);
      expect(Object.keys(book.controls).sort()).toEqual(['borrow', 'delete', 'edit', 'update']);

      const expectedFields = (required: boolean) => [
        { name: 'title', type: 'string', required, maxLength: 500, value: 'Controlled Currents' },
        { name: 'publication_year', type: 'integer', required, min: -3000, max: 2100, value: 1971 },
        {
          name: 'author_id',
          type: 'integer',
          required,
          min: 1,
          value: author,
          options: expect.objectContaining({ href: expect.any(String), valueField: 'id', promptField: 'name' }),
        },
        { name: 'isbn', type: 'string', required, format: 'isbn', nullable: true },
        { name: 'language', type: 'string', required, format: 'language', nullable: true },
        { name: 'subjects', type: 'string', required, multiple: true, maxItems: 20, nullable: true, value: [] },
        { name: 'publisher', type: 'string', required, maxLength: 200, nullable: true },
      ];
      const update = control(book, 'update');
      expect(update).toMatchObject({ href: `/books/${id}`, method: 'PUT', contentType: 'application/json' });
      expect(update.fields).toEqual(expectedFields(false).map((f) => expect.objectContaining(f)));
      const edit = control(book, 'edit');
      expect(edit).toMatchObject({ href: `/books/${id}`, method: 'PATCH', contentType: 'application/json' });
      expect(edit.fields).toEqual(expectedFields(false).map((f) => expect.objectContaining(f)));
      const del = control(book, 'delete');
      expect(del).toMatchObject({ href: `/books/${id}`, method: 'DELETE', fields: [] });
    });

    it('the author_id options href leads to the authors, with id and name', async () => {
      const author = await addAuthor(t, 'Optiona Fernhill');
      const id = await addBook(t, 'Optional Orchards', 1983, author);
      const book = await fetchDoc(t, `/books/${id}`);
      const options = remoteOptions(field(control(book, 'update'), 'author_id'));
      expect(options?.href).toMatch(/^\/authors(\?|$)/);
      const response = await t.request(options?.href as string);
      expect(response.status).toBe(200);
      const authors = await json<{ id: number; name: string }[]>(response);
      expectVocabulary(authors, response);
      expect(authors).toContainEqual(expect.objectContaining({ id: author, name: 'Optiona Fernhill' }));
    });

    it('the controls carry the values after a change', async () => {
      const author = await addAuthor(t, 'Valuella Drummond');
      const other = await addAuthor(t, 'Valuella Otherway');
      const id = await addBook(t, 'Valued Vessels', 1950, author);
      expect((await t.send('PATCH', `/books/${id}`, { publication_year: 1951, author_id: other })).status).toBe(200);
      const book = await fetchDoc(t, `/books/${id}`);
      for (const name of ['update', 'edit']) {
        const c = control(book, name);
        expect(field(c, 'title').value).toBe('Valued Vessels');
        expect(field(c, 'publication_year').value).toBe(1951);
        expect(field(c, 'author_id').value).toBe(other);
      }
    });
  });

  describe('an author', () => {
    it('links self, their books (first page) and collection', async () => {
      const author = await addAuthor(t, 'Linkwell Harrowgate');
      const doc = await fetchDoc(t, `/authors/${author}`);
      expect(linkPairs(doc)).toEqual([
        { rel: 'self', href: `/authors/${author}` },
        { rel: 'books', href: `/authors/${author}/books?page=1&per_page=20` },
        { rel: 'collection', href: '/authors?page=1&per_page=20' },
      ]);
    });

    it('offers update and edit with the name field, and delete while they have no books', async () => {
      const author = await addAuthor(t, 'Namely Quillfeather');
      const doc = await fetchDoc(t, `/authors/${author}`);
      expect(Object.keys(doc.controls).sort()).toEqual(['delete', 'edit', 'update']);
      const nameField = (required: boolean) =>
        expect.objectContaining({
          name: 'name',
          type: 'string',
          required,
          maxLength: 200,
          value: 'Namely Quillfeather',
        });
      expect(control(doc, 'update')).toMatchObject({ href: `/authors/${author}`, method: 'PUT' });
      expect(control(doc, 'update').fields).toEqual([nameField(false)]);
      expect(control(doc, 'edit')).toMatchObject({ href: `/authors/${author}`, method: 'PATCH' });
      expect(control(doc, 'edit').fields).toEqual([nameField(false)]);
      expect(control(doc, 'delete')).toMatchObject({ href: `/authors/${author}`, method: 'DELETE', fields: [] });
    });

    it('delete is absent while the author has a book, and back once the book is deleted', async () => {
      const author = await addAuthor(t, 'Deletia Stonebridge');
      expect(Object.keys((await fetchDoc(t, `/authors/${author}`)).controls)).toContain('delete');

      const id = await addBook(t, 'Undeletable Uplands', 1944, author);
      const withBook = await fetchDoc(t, `/authors/${author}`);
      expect(Object.keys(withBook.controls).sort()).toEqual(['edit', 'update']);
      const viaBook = await fetchDoc(t, `/books/${id}/author`);
      expect(Object.keys(viaBook.controls)).not.toContain('delete');
      // The refusal matches the missing control.
      expect((await t.request(`/authors/${author}`, { method: 'DELETE' })).status).toBe(409);

      expect((await t.request(`/books/${id}`, { method: 'DELETE' })).status).toBe(204);
      const without = await fetchDoc(t, `/authors/${author}`);
      const del = control(without, 'delete');
      expect((await submit(t, del)).status).toBe(204);
      expect((await t.request(`/authors/${author}`)).status).toBe(404);
    });

    it('an author without books is offered delete even while some book has an author_id equal to its own id', async () => {
      // A book whose id is its author_id: a "has books" that compared books.author_id with books.id would
      // find this row for every author.
      let authorId = 0;
      let bookId = 0;
      let bookAuthor = -1;
      while (!(bookId === authorId && bookAuthor === authorId)) {
        if (authorId <= bookId) authorId = await addAuthor(t, `Selfsame Scrivener ${authorId + 1}`);
        else {
          bookId = await addBook(t, 'Selfsame Sonnets', 1900, authorId);
          bookAuthor = authorId;
        }
      }
      expect(await json<BookDocument>(await t.request(`/books/${bookId}`))).toMatchObject({
        id: bookId,
        author_id: bookId,
      });
      const lonely = await addAuthor(t, 'Lonesome Nobooks');
      const doc = await fetchDoc(t, `/authors/${lonely}`);
      expect(Object.keys(doc.controls).sort()).toEqual(['delete', 'edit', 'update']);
      expect((await submit(t, control(doc, 'delete'))).status).toBe(204);
      expect((await t.request(`/authors/${lonely}`)).status).toBe(404);
    });
  });

  describe('collection pages', () => {
    it('a books page offers create (POST /books, the seed’s fields required, the record’s optional), search and import', async () => {
      const page = await fetchDoc(t, '/books?page=1&per_page=5');
      expect(Object.keys(page.controls).sort()).toEqual(['create', 'import', 'search']);
      expect(control(page, 'import')).toMatchObject({
        href: '/imports',
        method: 'POST',
        contentType: 'application/marcxml+xml',
        fields: [],
      });
      const create = control(page, 'create');
      expect(create).toMatchObject({ href: '/books', method: 'POST', contentType: 'application/json' });
      expect(create.fields.map((f) => [f.name, f.type, f.required])).toEqual([
        ['title', 'string', true],
        ['publication_year', 'integer', true],
        ['author_id', 'integer', true],
        ['isbn', 'string', false],
        ['language', 'string', false],
        ['subjects', 'string', false],
        ['publisher', 'string', false],
      ]);
      expect(create.fields.every((f) => f.value === undefined)).toBe(true);
      expect(remoteOptions(field(create, 'author_id'))?.href).toMatch(/^\/authors(\?|$)/);
      const search = control(page, 'search');
      expect(search).toMatchObject({ href: '/books', method: 'GET' });
      expect(search.fields.map((f) => [f.name, f.type])).toEqual(searchFieldTypes);
    });

    it('a page offers an anonymous caller only search', async () => {
      const author = await addAuthor(t, 'Searchonly Pinewood');
      for (const href of ['/books?page=1', '/authors?page=1', `/authors/${author}/books?page=1`]) {
        const page = await fetchDoc(t.anonymous, href);
        expect(Object.keys(page.controls), href).toEqual(['search']);
      }
    });

    it('an authors page offers create (POST /authors with name) and search (no author parameter)', async () => {
      const page = await fetchDoc(t, '/authors?per_page=3');
      expect(Object.keys(page.controls).sort()).toEqual(['create', 'search']);
      const create = control(page, 'create');
      expect(create).toMatchObject({ href: '/authors', method: 'POST', contentType: 'application/json' });
      expect(create.fields).toEqual([expect.objectContaining({ name: 'name', type: 'string', required: true })]);
      const search = control(page, 'search');
      expect(search).toMatchObject({ href: '/authors', method: 'GET' });
      expect(search.fields.map((f) => f.name)).toEqual(['query', 'filter', 'sort', 'page', 'per_page', 'fields']);
    });

    it('page items carry links and no controls', async () => {
      const author = await addAuthor(t, 'Itemia Westmarch');
      const id = await addBook(t, 'Itemised Inlets', 1990, author);
      const page = await fetchDoc(t, `/authors/${author}/books?page=1`);
      expect(page.data).toEqual([
        {
          id,
          title: 'Itemised Inlets',
          publication_year: 1990,
          author_id: author,
          isbn: null,
          language: null,
          subjects: [],
          publisher: null,
          available: true,
          due_at: null,
          copies_total: 1,
          copies_available: 1,
          links: [
            { rel: 'self', href: `/books/${id}` },
            { rel: 'author', href: `/authors/${author}`, title: 'Itemia Westmarch' },
            { rel: 'collection', href: '/books?page=1&per_page=20' },
          ],
        },
      ]);
    });

    it('an author\u2019s books page links up to the author and prefills author_id in create', async () => {
      const author = await addAuthor(t, 'Prefilla Oakenshaw');
      const page = await fetchDoc(t, `/authors/${author}/books?page=1&per_page=20`);
      expect(link(page, 'up')).toBe(`/authors/${author}`);
      expect(link(page, 'self')).toBe(`/authors/${author}/books?page=1&per_page=20`);
      expect(page.meta).toEqual({ page: 1, per_page: 20, total_pages: 0, total_items: 0 });
      const create = control(page, 'create');
      expect(create).toMatchObject({ href: '/books', method: 'POST' });
      expect(field(create, 'author_id')).toMatchObject({ type: 'integer', required: true, value: author });
      expect(control(page, 'search')).toMatchObject({ href: `/authors/${author}/books`, method: 'GET' });

      // A client sending the prefilled value creates a book by this author.
      const response = await submit(t, create, { title: 'Prefilled Pastures', publication_year: 2002 });
      expect(response.status).toBe(201);
      expect(await json<BookDocument>(response)).toMatchObject({ title: 'Prefilled Pastures', author_id: author });
      const after = await fetchDoc<PageDoc<BookDocument>>(t, `/authors/${author}/books?page=1`);
      expect(after.data.map((b: { title: string }) => b.title)).toEqual(['Prefilled Pastures']);
    });

    it('the up link of an author\u2019s books also goes in the Link header of the bare stream', async () => {
      const author = await addAuthor(t, 'Headerly Brackenridge');
      const response = await t.request(`/authors/${author}/books`);
      expect(response.status).toBe(200);
      expect(response.headers.get('link')).toContain(`</authors/${author}>; rel="up"`);
      expectVocabulary(await json<CollectionDocument<BookDocument>>(response), response);
    });
  });

  describe('a client that follows links', () => {
    it('browses from the root and creates, edits and deletes a book through the controls alone', async () => {
      const seedAuthor = await addAuthor(t, 'Wanderer Followmore');
      await addBook(t, 'Followed Footpaths', 1977, seedAuthor);

      const root = await fetchDoc(t, '/');
      const books = await fetchDoc<PageDoc<BookDocument>>(t, link(root, 'books'));
      expect(Object.keys(books)).toEqual(expect.arrayContaining(['data', 'meta', 'links', 'controls']));
      expect(books.data.length).toBeGreaterThan(0);

      const first = present(books.data[0], 'the first book');
      const book = await fetchDoc<BookDocument>(t, link(first, 'self'));
      expect(book).toMatchObject({ id: first.id, title: first.title });
      const author = await fetchDoc<AuthorDocument>(t, link(book, 'author'));
      expect(author.id).toBe(book.author_id);
      const authorBooks = await fetchDoc<PageDoc<BookDocument>>(t, link(author, 'books'));
      expect(Object.keys(authorBooks)).toEqual(expect.arrayContaining(['data', 'meta', 'links', 'controls']));
      expect(authorBooks.data.map((b: { id: number }) => b.id)).toContain(book.id);
      const up = await fetchDoc<AuthorDocument>(t, link(authorBooks, 'up'));
      expect(up).toMatchObject({ id: author.id, name: author.name });
      expect(link(up, 'self')).toBe(link(author, 'self'));

      // Create through the books page's control, choosing the author just visited.
      const create = control(books, 'create');
      const created = await submit(t, create, {
        title: 'Hyperlinked Harbours',
        publication_year: 1999,
        author_id: up.id,
      });
      expect(created.status).toBe(201);
      const location = created.headers.get('location');
      expect(location).toBeTruthy();
      const fresh = await fetchDoc(t, location as string);
      expect(fresh).toMatchObject({ title: 'Hyperlinked Harbours', publication_year: 1999, author_id: up.id });
      expect(link(fresh, 'self')).toBe(location);

      // Edit through the book's own control.
      const edited = await submit(t, control(fresh, 'edit'), { title: 'Hyperlinked Havens' });
      expect(edited.status).toBe(200);
      const editedBody = await json<Doc>(edited);
      expectVocabulary(editedBody, edited);
      expect(editedBody).toMatchObject({ id: fresh.id, title: 'Hyperlinked Havens', publication_year: 1999 });
      const reread = await fetchDoc(t, link(fresh, 'self'));
      expect(reread.title).toBe('Hyperlinked Havens');

      // Delete through the control of the re-read document.
      const deleted = await submit(t, control(reread, 'delete'));
      expect(deleted.status).toBe(204);
      expect((await t.request(link(fresh, 'self'))).status).toBe(404);
    });

    it('every rel and control name of the main documents is in the vocabulary', async () => {
      const author = await addAuthor(t, 'Vocabula Thistledown');
      const id = await addBook(t, 'Vocabulary Vales', 1960, author);
      for (const href of [
        '/',
        `/books/${id}`,
        `/books/${id}/author`,
        `/authors/${author}`,
        '/books?page=1&per_page=2',
        '/authors?page=2&per_page=1',
        `/authors/${author}/books?page=1`,
      ]) {
        await fetchDoc(t, href);
      }
      for (const href of ['/books', '/authors', `/authors/${author}/books`]) {
        const response = await t.request(href);
        expect(response.status).toBe(200);
        expectVocabulary(await json<CollectionDocument<Doc>>(response), response);
      }
    });
  });

  describe('the author link', () => {
    it('is titled with the author\u2019s name: on a book, in pages and bare arrays, in HAL, and after a rename', async () => {
      const author = await addAuthor(t, 'Link Title Writer');
      const book = await addBook(t, 'Titled Link', 1999, author);
      const titleOf = (links: (LinkDoc & { title?: string })[]) => links.find((l) => l.rel === 'author')?.title;
      expect(titleOf((await json<Doc>(await t.request(`/books/${book}`))).links)).toBe('Link Title Writer');
      const page = await json<{ data: Doc[] }>(await t.request(`/authors/${author}/books?per_page=5`));
      expect(page.data.map((item) => titleOf(item.links))).toEqual(['Link Title Writer']);
      const bare = await json<Doc[]>(await t.request(`/books?author=${encodeURIComponent('link title writer')}`));
      expect(bare.map((item) => titleOf(item.links))).toEqual(['Link Title Writer']);
      const hal = await json<HalDocument>(
        await t.request(`/books/${book}`, { headers: { Accept: 'application/hal+json' } }),
      );
      expect(hal._links.author).toEqual({ href: `/authors/${author}`, title: 'Link Title Writer' });
      expect((await t.send('PATCH', `/authors/${author}`, { name: 'Renamed Writer' })).status).toBe(200);
      expect(titleOf((await json<Doc>(await t.request(`/books/${book}`))).links)).toBe('Renamed Writer');
    });
  });
});

describe('hypermedia behind a proxy (publicUrl)', () => {
  const base = 'https://example.org/catalogue';
  let p: TestCatalogue;

  beforeAll(async () => {
    p = await openTestCatalogue({ publicUrl: base });
  });
  afterAll(() => p.close());

  /** Every `href` anywhere in a document. */
  function hrefsOf(value: unknown, into: string[] = []): string[] {
    if (Array.isArray(value)) for (const v of value) hrefsOf(v, into);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, v] of Object.entries(value)) {
        if (key === 'href' && typeof v === 'string') into.push(v);
        else hrefsOf(v, into);
      }
    }
    return into;
  }

  /** GETs a public href the way the proxy would pass it on (without the base), checking every href. */
  async function fetchPublic(href: string): Promise<Doc> {
    expect(href.startsWith(`${base}/`), href).toBe(true);
    const response = await p.request(href.slice(base.length));
    expect(response.status, href).toBe(200);
    const body = await json<Doc>(response);
    expectVocabulary(body, response);
    const hrefs = [...hrefsOf(body), ...linkHeader(response).map((link) => link.href)];
    expect(hrefs.length).toBeGreaterThan(0);
    for (const h of hrefs) expect(h.startsWith(`${base}/`), h).toBe(true);
    return body;
  }

  it('the root links and search template are absolute under the base', async () => {
    const id = await librarianId(p);
    const root = await fetchPublic(`${base}/`);
    expect(linkPairs(root)).toEqual([
      { rel: 'self', href: `${base}/` },
      { rel: 'books', href: `${base}/books?page=1&per_page=20` },
      { rel: 'authors', href: `${base}/authors?page=1&per_page=20` },
      { rel: 'search', href: `${base}/books{?query,author,filter*,sort,page,per_page,fields,facets}`, templated: true },
      { rel: 'suggestions', href: `${base}/suggestions{?query}`, templated: true },
      { rel: 'changes', href: `${base}/changes` },
      { rel: 'oai-pmh', href: `${base}/oai` },
      { rel: 'sru', href: `${base}/sru` },
      { rel: 'me', href: `${base}/users/${id}` },
      { rel: 'my_account', href: `${base}/me` },
      { rel: 'loans', href: `${base}/loans?page=1&per_page=20` },
      { rel: 'overdue', href: `${base}/loans?filter=status%3Aoverdue&page=1&per_page=20` },
      { rel: 'desk', href: `${base}/desk` },
      { rel: 'users', href: `${base}/users?page=1&per_page=20` },
      { rel: 'branches', href: `${base}/branches?page=1&per_page=20` },
      { rel: 'patron_categories', href: `${base}/patron-categories?page=1&per_page=20` },
      { rel: 'item_types', href: `${base}/item-types?page=1&per_page=20` },
      { rel: 'loan_rules', href: `${base}/loan-rules?page=1&per_page=20` },
      { rel: 'profile', href: `${base}/profile` },
      { rel: 'service-desc', href: `${base}/openapi.json` },
      { rel: 'mcp', href: `${base}/mcp` },
    ]);
    expect(control(root, 'search').href).toBe(`${base}/books`);
  });

  it('creating answers an absolute Location, and every document reached has absolute hrefs', async () => {
    const authorResponse = await p.send('POST', '/authors', { name: 'Absolute Proxymoor' });
    expect(authorResponse.status).toBe(201);
    const author = await json<AuthorDocument>(authorResponse);
    expect(authorResponse.headers.get('location')).toBe(`${base}/authors/${author.id}`);

    const bookResponse = await p.send('POST', '/books', {
      title: 'Absolute Archipelagos',
      publication_year: 1988,
      author_id: author.id,
    });
    expect(bookResponse.status).toBe(201);
    const location = bookResponse.headers.get('location') as string;
    const created = await json<BookDocument>(bookResponse);
    expect(location).toBe(`${base}/books/${created.id}`);

    const book = await fetchPublic(location);
    expect(link(book, 'self')).toBe(location);
    expect(link(book, 'author')).toBe(`${base}/authors/${author.id}`);
    expect(remoteOptions(field(control(book, 'update'), 'author_id'))?.href.startsWith(`${base}/authors`)).toBe(true);
    expect(control(book, 'delete').href).toBe(location);

    const authorDoc = await fetchPublic(link(book, 'author'));
    const authorBooks = await fetchPublic(link(authorDoc, 'books'));
    expect(link(authorBooks, 'up')).toBe(`${base}/authors/${author.id}`);
    expect(control(authorBooks, 'create').href).toBe(`${base}/books`);
    await fetchPublic(link(book, 'collection'));
    await fetchPublic(link(authorDoc, 'collection'));
    await fetchPublic(`${base}/books?page=1&per_page=1&sort=-id`);
  });

  it('the items of a bare stream and its Link header are absolute too', async () => {
    const authorResponse = await p.send('POST', '/authors', { name: 'Streamly Proxymoor' });
    const author = await json<AuthorDocument>(authorResponse);
    const bookResponse = await p.send('POST', '/books', {
      title: 'Streamed Straits',
      publication_year: 1977,
      author_id: author.id,
    });
    const book = await json<BookDocument>(bookResponse);
    const response = await p.request(`/authors/${author.id}/books`);
    expect(response.status).toBe(200);
    const headerHrefs = linkHeader(response).map((link) => link.href);
    expect(headerHrefs).toContain(`${base}/authors/${author.id}`);
    for (const h of headerHrefs) expect(h.startsWith(`${base}/`), h).toBe(true);
    const items = await json<Doc[]>(response);
    expect(items.map((i) => i.id)).toEqual([book.id]);
    expect(link(items[0] as Doc, 'self')).toBe(`${base}/books/${book.id}`);
    for (const h of hrefsOf(items)) expect(h.startsWith(`${base}/`), h).toBe(true);
  });
});
