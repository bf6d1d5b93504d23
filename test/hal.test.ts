/**
 * HAL and HAL-FORMS: golden documents of a book, an author, a page of books, a loan and the root for
 * each kind of caller; streamed collections; negotiation beside the seed's JSON; errors; and a walk
 * that finds the same links and controls in JSON and HAL-FORMS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { halFormat } from '../src/formats/hal.js';
import { halFormsFormat } from '../src/formats/hal-forms.js';
import { jsonFormat } from '../src/formats/json.js';
import { negotiate } from '../src/formats/registry.js';
import type { Resource } from '../src/hypermedia/model.js';
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
import { borrow } from './support/circulation.js';
import type { ErrorDocument, HalDocument, LoanDocument, RootDocument } from './support/documents.js';

const HAL = 'application/hal+json';
const FORMS = 'application/prs.hal-forms+json';
const KETTING_ACCEPT =
  'application/prs.hal-forms+json;q=1.0, application/hal+json;q=0.9, application/json;q=0.7, text/html;q=0.6';
const contentTypes: Record<string, string> = {
  [HAL]: 'application/hal+json; charset=utf-8',
  [FORMS]: 'application/prs.hal-forms+json; charset=utf-8',
};

type Who = 'anonymous' | 'member' | 'librarian';
// biome-ignore lint/suspicious/noExplicitAny: documents are compared whole or inspected loosely
type Doc = Record<string, any>;

let t: TestCatalogue;
let callers: Record<Who, TestClient>;
let authorId: number;
let books: { id: number; title: string; year: number }[];
let member: { id: number; token: string };
let librarianId: number;
/** The member's loan of the first book, as the seed's JSON answered the borrowing. */
let loan: Doc;

beforeAll(async () => {
  t = await openTestCatalogue();
  authorId = await addAuthor(t, 'Ursula K. Le Guin');
  books = [];
  for (const [title, year] of [
    ['A Wizard of Earthsea', 1968],
    ['The Tombs of Atuan', 1971],
    ['The Farthest Shore', 1972],
    ['Tehanu', 1990],
    ['The Other Wind', 2001],
  ] as const) {
    books.push({ id: await addBook(t, title, year, authorId), title, year });
  }
  member = await addUser(t, 'Tenar', 'member');
  callers = { anonymous: t.anonymous, member: t.as(member.token), librarian: t };
  librarianId = Number(
    linkHref(await json<RootDocument>(await t.request('/')), 'me')
      ?.split('/')
      .pop(),
  );
  const borrowed = await borrow(callers.member, (books[0] as { id: number }).id);
  expect(borrowed.status).toBe(201);
  loan = await json<LoanDocument>(borrowed);
});
afterAll(() => t.close());

/** GETs a document in a format, checking the status and the `Content-Type`. */
async function fetchDoc(client: TestClient, path: string, accept: string): Promise<Doc> {
  const response = await client.request(path, { headers: { Accept: accept } });
  expect(response.status, `${accept} ${path}`).toBe(200);
  expect(response.headers.get('content-type')).toBe(contentTypes[accept]);
  expect(response.headers.get('vary')).toContain('Accept');
  return json<Doc>(response);
}

/**
 * Checks one resource for every caller against its expected HAL-FORMS document; the HAL document is
 * expected to be the same without `_templates` (plain HAL shows no controls).
 */
async function expectGolden(path: string, expected: Record<Who, Doc>): Promise<void> {
  for (const who of ['anonymous', 'member', 'librarian'] as const) {
    const { _templates, ...hal } = expected[who];
    expect(await fetchDoc(callers[who], path, FORMS), `HAL-FORMS ${path} as ${who}`).toEqual(expected[who]);
    expect(await fetchDoc(callers[who], path, HAL), `HAL ${path} as ${who}`).toEqual(hal);
  }
}

const authorOptions = (required: boolean) => ({
  link: { href: '/authors?fields=id%2Cname' },
  promptField: 'name',
  valueField: 'id',
  minItems: required ? 1 : 0,
  maxItems: 1,
});

const bookSearch = {
  title: 'Search books',
  method: 'GET',
  target: '/books',
  properties: [
    { name: 'query', prompt: 'Search titles and authors', type: 'text', required: false },
    { name: 'author', prompt: 'Author\u2019s name', type: 'text', required: false },
    {
      name: 'filter',
      prompt: 'Exact match, field:value (id, title, publication_year, author_id, copies_available)',
      type: 'text',
      required: false,
    },
    {
      name: 'sort',
      prompt: 'Sort by',
      type: 'text',
      required: false,
      // Labelled orders, as HAL-FORMS writes choices by value: one of them, or none.
      options: {
        inline: [
          { prompt: 'Relevance', value: '' },
          { prompt: 'Title A\u2013Z', value: 'title' },
          { prompt: 'Title Z\u2013A', value: '-title' },
          { prompt: 'Newest first', value: '-publication_year' },
          { prompt: 'Oldest first', value: 'publication_year' },
          { prompt: 'Most available', value: '-copies_available' },
        ],
        minItems: 0,
        maxItems: 1,
      },
    },
    { name: 'page', prompt: 'Page', type: 'number', required: false, min: 1, max: 2147483647 },
    { name: 'per_page', prompt: 'Per page', type: 'number', required: false, value: 20, min: 1, max: 100 },
    { name: 'fields', prompt: 'Fields to return, comma-separated', type: 'text', required: false },
    {
      name: 'facets',
      prompt: 'Facets to count, comma-separated (author, decade, available, language, subject)',
      type: 'text',
      required: false,
    },
  ],
};

const createBook = {
  title: 'Add a book',
  method: 'POST',
  target: '/books',
  contentType: 'application/json',
  properties: [
    { name: 'title', prompt: 'Title', type: 'text', required: true, maxLength: 500 },
    { name: 'publication_year', prompt: 'Year', type: 'number', required: true, min: -3000, max: 2100 },
    { name: 'author_id', prompt: 'Author', type: 'number', required: true, min: 1, options: authorOptions(true) },
    ...bibliographicProperties(),
  ],
};

/** A librarian's import of records into the books collection: the file is the body, so no properties. */
const importRecords = {
  title: 'Import records',
  method: 'POST',
  target: '/imports',
  contentType: 'application/marcxml+xml',
  properties: [],
};

/** The optional fields of a book's record, as HAL-FORMS properties; a change prefills the subjects (none). */
function bibliographicProperties(change = false) {
  return [
    { name: 'isbn', prompt: 'ISBN', type: 'text', required: false, format: 'isbn', nullable: true },
    { name: 'language', prompt: 'Language', type: 'text', required: false, format: 'language', nullable: true },
    {
      name: 'subjects',
      prompt: 'Subjects',
      type: 'text',
      required: false,
      ...(change && { value: [] }),
      maxLength: 200,
      multiple: true,
      maxItems: 20,
      nullable: true,
    },
    { name: 'publisher', prompt: 'Publisher', type: 'text', required: false, maxLength: 200, nullable: true },
  ];
}

/** PUT (`put`) or PATCH of a book, prefilled with its current values: either changes only what is sent. */
function changeBook(id: number, title: string, year: number, put: boolean) {
  const required = false;
  return {
    title: put ? 'Update book' : 'Edit book',
    method: put ? 'PUT' : 'PATCH',
    target: `/books/${id}`,
    contentType: 'application/json',
    properties: [
      { name: 'title', prompt: 'Title', type: 'text', required, value: title, maxLength: 500 },
      { name: 'publication_year', prompt: 'Year', type: 'number', required, value: year, min: -3000, max: 2100 },
      {
        name: 'author_id',
        prompt: 'Author',
        type: 'number',
        required,
        value: authorId,
        min: 1,
        options: authorOptions(required),
      },
      ...bibliographicProperties(true),
    ],
  };
}

/**
 * A book with its one copy on the shelf, as a collection's member; `who` names the caller reading the
 * book's own document, which adds its copies (for everyone) and its queue of holds (for a librarian).
 */
function bookDoc(index: number, extra: Doc = {}, who?: Who): Doc {
  const book = books[index] as (typeof books)[number];
  return {
    id: book.id,
    title: book.title,
    publication_year: book.year,
    author_id: authorId,
    isbn: null,
    language: null,
    subjects: [],
    publisher: null,
    available: true,
    due_at: null,
    copies_total: 1,
    copies_available: 1,
    _links: {
      self: { href: `/books/${book.id}` },
      author: { href: `/authors/${authorId}`, title: 'Ursula K. Le Guin' },
      collection: { href: '/books?page=1&per_page=20' },
      ...(who !== undefined && { copies: { href: `/books/${book.id}/copies?page=1&per_page=20`, title: 'Copies' } }),
      ...(who === 'librarian' && {
        holds: { href: `/books/${book.id}/holds?page=1&per_page=20`, title: 'Holds (the queue)' },
      }),
      ...((who === 'member' || who === 'librarian') && {
        explain: { href: `/books/${book.id}/explain`, title: 'Why a loan of it gets its terms' },
      }),
    },
    ...extra,
  };
}

/** The first book, whose only copy the member has on loan. */
const onLoanDoc = (extra: Doc = {}, who?: Who) =>
  bookDoc(0, { available: false, due_at: loan.due_at, copies_available: 0, ...extra }, who);

describe('golden HAL and HAL-FORMS documents', () => {
  it('a book: borrow for a member; borrow for someone, update, edit and delete for a librarian', async () => {
    const book = books[1] as (typeof books)[number];
    const memberBorrow = {
      title: 'Borrow this book',
      method: 'POST',
      target: `/books/${book.id}/borrow`,
      contentType: 'application/json',
      properties: [],
    };
    const librarianBorrow = {
      ...memberBorrow,
      properties: [
        {
          name: 'borrower_id',
          prompt: 'Borrower',
          type: 'number',
          required: false,
          min: 1,
          options: {
            link: { href: '/users?fields=id%2Cname' },
            promptField: 'name',
            valueField: 'id',
            minItems: 0,
            maxItems: 1,
          },
        },
        {
          name: 'copy_id',
          prompt: 'Copy',
          type: 'number',
          required: false,
          min: 1,
          options: {
            link: { href: `/books/${book.id}/copies?filter=status%3Aavailable&fields=id%2Clabel` },
            promptField: 'label',
            valueField: 'id',
            minItems: 0,
            maxItems: 1,
          },
        },
        {
          name: 'branch_id',
          prompt: 'Lent at branch',
          type: 'number',
          required: false,
          min: 1,
          max: 2147483647,
          options: {
            link: { href: '/branches?fields=id%2Cname' },
            promptField: 'name',
            valueField: 'id',
            minItems: 0,
            maxItems: 1,
          },
        },
      ],
    };
    const update = changeBook(book.id, book.title, book.year, true);
    const edit = changeBook(book.id, book.title, book.year, false);
    const remove = { title: 'Delete book', method: 'DELETE', target: `/books/${book.id}`, properties: [] };
    await expectGolden(`/books/${book.id}`, {
      anonymous: bookDoc(1, {}, 'anonymous'),
      member: bookDoc(1, { _templates: { default: memberBorrow, borrow: memberBorrow } }, 'member'),
      librarian: bookDoc(
        1,
        { _templates: { default: librarianBorrow, borrow: librarianBorrow, update, edit, delete: remove } },
        'librarian',
      ),
    });
  });

  it('a book on loan: nothing for its member, a hold but no borrow or delete for a librarian', async () => {
    const book = books[0] as (typeof books)[number];
    const hold = {
      title: 'Place a hold',
      method: 'POST',
      target: `/books/${book.id}/holds`,
      contentType: 'application/json',
      properties: [
        {
          name: 'pickup_branch_id',
          prompt: 'Pickup branch',
          type: 'number',
          required: false,
          min: 1,
          max: 2147483647,
          options: {
            link: { href: '/branches?fields=id%2Cname' },
            promptField: 'name',
            valueField: 'id',
            minItems: 0,
            maxItems: 1,
          },
        },
      ],
    };
    const update = changeBook(book.id, book.title, book.year, true);
    const edit = changeBook(book.id, book.title, book.year, false);
    await expectGolden(`/books/${book.id}`, {
      anonymous: onLoanDoc({}, 'anonymous'),
      // Its borrower has the copy: neither borrow nor hold.
      member: onLoanDoc({}, 'member'),
      librarian: onLoanDoc({ _templates: { default: hold, hold, update, edit } }, 'librarian'),
    });
  });

  it('an author: update and edit for a librarian (no delete while they have books)', async () => {
    const doc = (extra: Doc = {}) => ({
      id: authorId,
      name: 'Ursula K. Le Guin',
      _links: {
        self: { href: `/authors/${authorId}` },
        books: { href: `/authors/${authorId}/books?page=1&per_page=20`, title: 'Books by Ursula K. Le Guin' },
        collection: { href: '/authors?page=1&per_page=20' },
      },
      ...extra,
    });
    const change = (put: boolean) => ({
      title: put ? 'Update author' : 'Edit author',
      method: put ? 'PUT' : 'PATCH',
      target: `/authors/${authorId}`,
      contentType: 'application/json',
      properties: [
        { name: 'name', prompt: 'Name', type: 'text', required: false, value: 'Ursula K. Le Guin', maxLength: 200 },
      ],
    });
    await expectGolden(`/authors/${authorId}`, {
      anonymous: doc(),
      member: doc(),
      librarian: doc({ _templates: { default: change(true), update: change(true), edit: change(false) } }),
    });
  });

  it('a page of books: meta, paging rels, members under _embedded.item; create for a librarian', async () => {
    const page = (extra: Doc) => ({
      meta: { page: 2, per_page: 2, total_pages: 3, total_items: 5 },
      _links: {
        self: { href: '/books?page=2&per_page=2' },
        first: { href: '/books?page=1&per_page=2' },
        // Keyset cursors, opaque: that they lead to the right pages is test/listing.test.ts's business.
        last: { href: expect.stringMatching(/^\/books\?per_page=2&cursor=[\w-]+$/) },
        prev: { href: expect.stringMatching(/^\/books\?per_page=2&cursor=[\w-]+$/) },
        next: { href: expect.stringMatching(/^\/books\?per_page=2&cursor=[\w-]+$/) },
      },
      ...extra,
      _embedded: { item: [bookDoc(2), bookDoc(3)] },
    });
    await expectGolden('/books?page=2&per_page=2', {
      anonymous: page({ _templates: { default: bookSearch, search: bookSearch } }),
      member: page({ _templates: { default: bookSearch, search: bookSearch } }),
      librarian: page({
        _templates: { default: createBook, create: createBook, search: bookSearch, import: importRecords },
      }),
    });
  });

  it('a loan: return and renew for its borrower and a librarian; the anonymous get the seed error', async () => {
    const returnLoan = {
      title: 'Return this book',
      method: 'PATCH',
      target: `/loans/${loan.id}`,
      contentType: 'application/json',
      properties: [
        {
          name: 'status',
          prompt: 'Status',
          type: 'text',
          required: true,
          value: 'returned',
          options: { inline: ['returned'], minItems: 1, maxItems: 1 },
        },
        {
          name: 'branch_id',
          prompt: 'Returned at branch',
          type: 'number',
          required: false,
          min: 1,
          max: 2147483647,
          value: expect.any(Number),
          options: {
            link: { href: '/branches?fields=id%2Cname' },
            promptField: 'name',
            valueField: 'id',
            minItems: 0,
            maxItems: 1,
          },
        },
      ],
    };
    const renewLoan = {
      title: 'Renew this loan',
      method: 'POST',
      target: `/loans/${loan.id}/renewals`,
      contentType: 'application/json',
      properties: [],
    };
    expect(loan.copy_id).toEqual(expect.any(Number));
    const expected = {
      id: loan.id,
      book_id: books[0]?.id,
      copy_id: loan.copy_id,
      borrower_id: member.id,
      borrowed_at: loan.borrowed_at,
      due_at: loan.due_at,
      returned_at: null,
      lost_at: null,
      renewals: 0,
      status: 'active',
      _links: {
        self: { href: `/loans/${loan.id}` },
        book: { href: `/books/${books[0]?.id}` },
        copy: { href: `/copies/${loan.copy_id}` },
        borrower: { href: `/users/${member.id}` },
        collection: { href: '/loans?page=1&per_page=20' },
        explain: { href: `/loans/${loan.id}/explain`, title: 'Why it has its terms' },
      },
      _templates: { default: returnLoan, return: returnLoan, renew: renewLoan },
    };
    for (const who of ['member', 'librarian'] as const) {
      const { _templates, ...hal } = expected;
      expect(await fetchDoc(callers[who], `/loans/${loan.id}`, FORMS)).toEqual(expected);
      expect(await fetchDoc(callers[who], `/loans/${loan.id}`, HAL)).toEqual(hal);
    }
    for (const accept of [HAL, FORMS]) {
      const response = await callers.anonymous.request(`/loans/${loan.id}`, { headers: { Accept: accept } });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await json<ErrorDocument>(response)).toEqual({
        error: { code: 401, message: 'sign in: send Authorization: Bearer <token>' },
      });
    }
  });

  it('the root: links by caller; login for the anonymous, search for everyone', async () => {
    const login = {
      title: 'Sign in',
      method: 'POST',
      target: '/session',
      contentType: 'application/json',
      properties: [
        { name: 'card_number', prompt: 'Library card', type: 'text', required: false, maxLength: 64 },
        { name: 'pin', prompt: 'PIN', type: 'text', required: false, maxLength: 128 },
        { name: 'token', prompt: 'Token', type: 'text', required: false, maxLength: 512 },
      ],
    };
    const root = (links: Doc, templates: Doc) => ({
      name: 'catalogue',
      description: 'A library catalogue of books and authors. Follow the links; submit the controls.',
      _links: {
        self: { href: '/' },
        books: { href: '/books?page=1&per_page=20', title: 'Books' },
        authors: { href: '/authors?page=1&per_page=20', title: 'Authors' },
        search: {
          href: '/books{?query,author,filter*,sort,page,per_page,fields,facets}',
          templated: true,
          title: 'Search books',
        },
        suggestions: { href: '/suggestions{?query}', templated: true, title: 'Suggestions as you type' },
        changes: { href: '/changes', title: 'Changes' },
        'oai-pmh': { href: '/oai', title: 'OAI-PMH for harvesters' },
        sru: { href: '/sru', title: 'SRU for union catalogues' },
        ...links,
        profile: { href: '/profile', title: 'What the links and controls mean' },
        'service-desc': { href: '/openapi.json', title: 'OpenAPI description' },
        mcp: { href: '/mcp', title: 'MCP endpoint for agents' },
      },
      _templates: templates,
    });
    await expectGolden('/', {
      anonymous: root({}, { default: login, login, search: bookSearch }),
      member: root(
        {
          me: { href: `/users/${member.id}`, title: 'Tenar' },
          my_account: { href: '/me', title: 'My account' },
          loans: { href: '/loans?page=1&per_page=20', title: 'My loans' },
          branches: { href: '/branches?page=1&per_page=20', title: 'Branches' },
        },
        { default: bookSearch, search: bookSearch },
      ),
      librarian: root(
        {
          me: { href: `/users/${librarianId}`, title: 'Administrator' },
          my_account: { href: '/me', title: 'My account' },
          loans: { href: '/loans?page=1&per_page=20', title: 'Loans' },
          overdue: { href: '/loans?filter=status%3Aoverdue&page=1&per_page=20', title: 'Overdue loans' },
          desk: { href: '/desk', title: 'Circulation desk' },
          users: { href: '/users?page=1&per_page=20', title: 'Users' },
          branches: { href: '/branches?page=1&per_page=20', title: 'Branches' },
          patron_categories: { href: '/patron-categories?page=1&per_page=20', title: 'Patron categories' },
          item_types: { href: '/item-types?page=1&per_page=20', title: 'Item types' },
          loan_rules: { href: '/loan-rules?page=1&per_page=20', title: 'Lending rules' },
        },
        { default: bookSearch, search: bookSearch },
      ),
    });
  });
});

describe('streamed collections', () => {
  it('a bare /books in HAL is every book under _embedded.item, streamed without a Content-Length', async () => {
    const response = await callers.anonymous.request('/books', { headers: { Accept: HAL } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/hal+json; charset=utf-8');
    expect(response.headers.get('content-length')).toBeNull();
    expect(await json<HalDocument>(response)).toEqual({
      _links: { self: { href: '/books' }, first: { href: '/books?page=1&per_page=20' } },
      _embedded: {
        item: [onLoanDoc(), bookDoc(1), bookDoc(2), bookDoc(3), bookDoc(4)],
      },
    });
  });

  it('in HAL-FORMS, the collection’s templates come before its members; an empty one is still whole', async () => {
    const full = await fetchDoc(t, '/books', FORMS);
    expect(Object.keys(full)).toEqual(['_links', '_templates', '_embedded']);
    expect(full._templates).toEqual({
      default: createBook,
      create: createBook,
      search: bookSearch,
      import: importRecords,
    });
    expect(full._embedded.item).toHaveLength(5);
    expect(await fetchDoc(t, '/books?query=zzzzzz', HAL)).toEqual({
      _links: { self: { href: '/books?query=zzzzzz' }, first: { href: '/books?query=zzzzzz&page=1&per_page=20' } },
      _embedded: { item: [] },
    });
  });

  it('writes each batch of members as it arrives, and nothing before the first has been read', async () => {
    const item = (id: number): Resource => ({
      kind: 'book',
      state: { id },
      links: [{ rel: 'self', href: `/books/${id}` }],
      controls: [],
    });
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    async function* items() {
      yield [item(1)];
      await gate;
      yield [item(2), item(3)];
    }
    const stream = { kind: 'book-list' as const, links: [{ rel: 'self' as const, href: '/books' }], controls: [] };
    const chunks = halFormat.stream({ ...stream, items: items() })[Symbol.asyncIterator]();
    // The first member is out while the second is still being read.
    expect((await chunks.next()).value).toBe(
      '{"_links":{"self":{"href":"/books"}},"_embedded":{"item":[{"id":1,"_links":{"self":{"href":"/books/1"}}}',
    );
    release();
    expect((await chunks.next()).value).toBe(
      ',{"id":2,"_links":{"self":{"href":"/books/2"}}},{"id":3,"_links":{"self":{"href":"/books/3"}}}',
    );
    expect((await chunks.next()).value).toBe(']}}');
    expect((await chunks.next()).done).toBe(true);

    // A query that fails before its first row fails the first chunk, so no response has started.
    async function* failing(): AsyncGenerator<Resource[]> {
      yield* [];
      throw new Error('cursor failed');
    }
    const failed = halFormsFormat.stream({ ...stream, items: failing() })[Symbol.asyncIterator]();
    await expect(failed.next()).rejects.toThrow('cursor failed');
  });
});

describe('negotiation', () => {
  const bookPath = () => `/books/${books[1]?.id}`;

  it('picks HAL-FORMS for Ketting’s Accept and HAL for application/hal+json', async () => {
    expect(negotiate(KETTING_ACCEPT)).toBe(halFormsFormat);
    expect(negotiate(HAL)).toBe(halFormat);
    expect(negotiate(FORMS)).toBe(halFormsFormat);
    const ketting = await t.request(bookPath(), { headers: { Accept: KETTING_ACCEPT } });
    expect(ketting.headers.get('content-type')).toBe('application/prs.hal-forms+json; charset=utf-8');
    expect((await json<HalDocument>(ketting))._templates?.borrow?.target).toBe(`${bookPath()}/borrow`);
    const hal = await t.request(bookPath(), { headers: { Accept: HAL } });
    expect(hal.headers.get('content-type')).toBe('application/hal+json; charset=utf-8');
    expect(await json<HalDocument>(hal)).not.toHaveProperty('_templates');
  });

  it('keeps the seed’s JSON, unchanged, for */*, application/json and no Accept', async () => {
    expect(negotiate(undefined)).toBe(jsonFormat);
    expect(negotiate('*/*')).toBe(jsonFormat);
    expect(negotiate('application/json')).toBe(jsonFormat);
    const book = books[1] as (typeof books)[number];
    const authorChoices = { href: '/authors?fields=id%2Cname', valueField: 'id', promptField: 'name' };
    // PUT and PATCH alike change only the fields sent: no field of either is required.
    const bookFields = (required = false) => [
      { name: 'title', type: 'string', required, maxLength: 500, title: 'Title', value: book.title },
      { name: 'publication_year', type: 'integer', required, min: -3000, max: 2100, title: 'Year', value: book.year },
      {
        name: 'author_id',
        type: 'integer',
        required,
        min: 1,
        title: 'Author',
        value: authorId,
        options: authorChoices,
      },
      { name: 'isbn', type: 'string', required, format: 'isbn', nullable: true, title: 'ISBN' },
      { name: 'language', type: 'string', required, format: 'language', nullable: true, title: 'Language' },
      {
        name: 'subjects',
        type: 'string',
        required,
        maxLength: 200,
        multiple: true,
        maxItems: 20,
        nullable: true,
        title: 'Subjects',
        value: [],
      },
      { name: 'publisher', type: 'string', required, maxLength: 200, nullable: true, title: 'Publisher' },
    ];
    const seed = {
      id: book.id,
      title: book.title,
      publication_year: book.year,
      author_id: authorId,
      isbn: null,
      language: null,
      subjects: [],
      publisher: null,
      available: true,
      due_at: null,
      copies_total: 1,
      copies_available: 1,
      links: [
        { rel: 'self', href: `/books/${book.id}` },
        { rel: 'author', href: `/authors/${authorId}`, title: 'Ursula K. Le Guin' },
        { rel: 'collection', href: '/books?page=1&per_page=20' },
        { rel: 'copies', href: `/books/${book.id}/copies?page=1&per_page=20`, title: 'Copies' },
        { rel: 'holds', href: `/books/${book.id}/holds?page=1&per_page=20`, title: 'Holds (the queue)' },
        { rel: 'explain', href: `/books/${book.id}/explain`, title: 'Why a loan of it gets its terms' },
      ],
      controls: {
        borrow: {
          href: `/books/${book.id}/borrow`,
          method: 'POST',
          title: 'Borrow this book',
          contentType: 'application/json',
          fields: [
            {
              name: 'borrower_id',
              type: 'integer',
              required: false,
              min: 1,
              title: 'Borrower',
              options: { href: '/users?fields=id%2Cname', valueField: 'id', promptField: 'name' },
            },
            {
              name: 'copy_id',
              type: 'integer',
              required: false,
              min: 1,
              title: 'Copy',
              options: {
                href: `/books/${book.id}/copies?filter=status%3Aavailable&fields=id%2Clabel`,
                valueField: 'id',
                promptField: 'label',
              },
            },
            {
              name: 'branch_id',
              type: 'integer',
              required: false,
              min: 1,
              max: 2147483647,
              title: 'Lent at branch',
              options: { href: '/branches?fields=id%2Cname', valueField: 'id', promptField: 'name' },
            },
          ],
        },
        update: {
          href: `/books/${book.id}`,
          method: 'PUT',
          title: 'Update book',
          contentType: 'application/json',
          fields: bookFields(),
        },
        edit: {
          href: `/books/${book.id}`,
          method: 'PATCH',
          title: 'Edit book',
          contentType: 'application/json',
          fields: bookFields(),
        },
        delete: { href: `/books/${book.id}`, method: 'DELETE', title: 'Delete book', fields: [] },
      },
    };
    const bodies: string[] = [];
    for (const headers of [{}, { Accept: '*/*' }, { Accept: 'application/json' }] as Record<string, string>[]) {
      const response = await t.request(bookPath(), { headers });
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      bodies.push(await response.text());
    }
    expect(JSON.parse(bodies[0] as string)).toEqual(seed);
    expect(new Set(bodies).size).toBe(1);
    // A bare collection stays a plain array.
    const list = await t.request('/books', { headers: { Accept: '*/*' } });
    expect(Array.isArray(await json<unknown>(list))).toBe(true);
  });
});

describe('errors in HAL requests', () => {
  it('keep the seed’s error shape and media type', async () => {
    for (const accept of [HAL, FORMS, KETTING_ACCEPT]) {
      const missing = await t.request('/books/999999', { headers: { Accept: accept } });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await json<ErrorDocument>(missing)).toEqual({ error: { code: 404, message: 'book 999999 not found' } });

      const invalid = await t.send('POST', '/books', { title: '' }, { Accept: accept });
      const seedInvalid = await t.send('POST', '/books', { title: '' }, { Accept: 'application/json' });
      expect(invalid.status).toBe(400);
      expect(invalid.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body = await json<ErrorDocument>(invalid);
      expect(body).toEqual(await json<ErrorDocument>(seedInvalid));
      expect(Object.keys(body.error).sort()).toEqual(['code', 'details', 'message']);
    }
  });
});

describe('one model, two formats', () => {
  /** Unique rels in order of first appearance. */
  const relsOf = (links: { rel: string }[]) => [...new Set(links.map((l) => l.rel))];

  /**
   * Fetches a resource in JSON and in HAL-FORMS and checks they carry the same state, link rels, control
   * names and members; answers the HAL-FORMS document to walk on from.
   */
  async function sameModel(client: TestClient, path: string): Promise<Doc> {
    const jsonResponse = await client.request(path, { headers: { Accept: 'application/json' } });
    const formsResponse = await client.request(path, { headers: { Accept: KETTING_ACCEPT } });
    expect(formsResponse.headers.get('link')).toBe(jsonResponse.headers.get('link'));
    const { links, controls, data, ...jsonState } = await json<Doc>(jsonResponse);
    const { _links, _templates = {}, _embedded, ...formsState } = await json<Doc>(formsResponse);
    expect(formsState, path).toEqual(jsonState);
    expect(Object.keys(_links), path).toEqual(relsOf(links));
    const names = Object.keys(controls);
    expect(Object.keys(_templates), path).toEqual(names.length > 0 ? ['default', ...names] : []);
    if (names.length > 0) expect(_templates.default).toEqual(_templates[names[0] as string]);
    for (const name of names) {
      expect(_templates[name].method, `${path} ${name}`).toBe(controls[name].method);
      expect(_templates[name].target, `${path} ${name}`).toBe(controls[name].href);
      expect(_templates[name].properties.map((p: Doc) => p.name)).toEqual(
        controls[name].fields.map((f: Doc) => f.name),
      );
    }
    expect(_embedded?.item.length).toBe(data?.length);
    (data ?? []).forEach((item: Doc, i: number) => {
      expect(Object.keys(_embedded.item[i]._links)).toEqual(relsOf(item.links));
    });
    return { _links, _templates, _embedded };
  }

  it('names the same links and controls along a walk from the root to a borrowed and returned book', async () => {
    for (const who of ['anonymous', 'librarian'] as const) {
      const root = await sameModel(callers[who], '/');
      const page = await sameModel(callers[who], root._links.books.href);
      const book = await sameModel(callers[who], page._embedded.item[4]._links.self.href);
      await sameModel(callers[who], book._links.author.href);
    }

    // As the member, following only rels and submitting only templates, as Ketting would.
    const client = callers.member;
    const root = await sameModel(client, '/');
    const page = await sameModel(client, root._links.books.href);
    const book = await sameModel(client, page._embedded.item[4]._links.self.href);
    const borrow = book._templates.borrow;
    const borrowed = await client.request(borrow.target, {
      method: borrow.method,
      headers: { Accept: KETTING_ACCEPT },
    });
    expect(borrowed.status).toBe(201);
    const loanPath = borrowed.headers.get('location') as string;
    const active = await sameModel(client, loanPath);
    const giveBack = active._templates.return;
    const values = Object.fromEntries(giveBack.properties.map((p: Doc) => [p.name, p.value]));
    const returned = await client.request(giveBack.target, {
      method: giveBack.method,
      headers: { Accept: KETTING_ACCEPT, 'Content-Type': giveBack.contentType },
      body: JSON.stringify(values),
    });
    expect(returned.status).toBe(200);
    expect((await json<LoanDocument>(returned)).status).toBe('returned');
    expect((await sameModel(client, loanPath))._templates).toEqual({});
    await sameModel(client, root._links.loans.href);
  });
});
