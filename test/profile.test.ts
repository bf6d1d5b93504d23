/**
 * The profile: linked from the root as `profile`, generated from the vocabulary and the route table,
 * served like any resource in every format. Every control any caller is offered must be described there,
 * with the same method and the same typed, bounded fields; and everything it describes is offered to
 * someone.
 */
import { sql } from 'drizzle-orm';
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
import { borrow, borrowed, placeHold } from './support/circulation.js';
import {
  type BookDocument,
  type ControlDoc,
  type CopyDocument,
  type Doc,
  type HalDocument,
  halHref,
  linkOf,
  type OpenApiDocument,
  type PageDoc,
  type ProfileDocument,
  present,
  type RootDocument,
  type TokenDocument,
} from './support/documents.js';

let t: TestCatalogue;
let profile: ProfileDocument;
/** Documents as their callers see them, each offering some controls. */
const documents: { who: string; path: string; doc: Doc }[] = [];

beforeAll(async () => {
  t = await openTestCatalogue();
  const author = await addAuthor(t, 'Profila Vocabularia');
  const lonelyAuthor = await addAuthor(t, 'Nobody Wrote Here');
  const lent = await addBook(t, 'Described Destinies', 1990, author);
  const untouched = await addBook(t, 'Undescribed Dunes', 1991, author);
  const member = await addUser(t, 'Profile Reader');
  const asMember = t.as(member.token);
  const lending = await borrow(asMember, lent);
  expect(lending.status).toBe(201);
  const loan = lending.headers.get('location') as string;
  const tokens = await json<PageDoc<TokenDocument>>(await asMember.request(`/users/${member.id}/tokens`));
  const token = linkOf(present(tokens.data[0], 'the token'), 'self').href;
  // A book whose one copy another member has: the member joins its queue, and the hold can be cancelled.
  const held = await addBook(t, 'Held Horizons', 1992, author);
  const borrower = await addUser(t, 'Profile Borrower');
  await borrowed(t.as(borrower.token), held);
  const placed = await placeHold(asMember, held);
  expect(placed.status).toBe(201);
  const hold = placed.headers.get('location') as string;
  // The copy on the shelf, which a librarian may withdraw.
  const copiesOfUntouched = linkHref(
    await json<BookDocument>(await t.request(`/books/${untouched}`)),
    'copies',
  ) as string;
  const copies = await json<PageDoc<CopyDocument>>(await t.request(copiesOfUntouched));
  expect(copies.data).toHaveLength(1);
  const copy = linkOf(present(copies.data[0], 'the copy'), 'self').href;

  // The lending lists and rules, each with an entry besides its default, which a librarian may delete.
  const east = (await json<{ id: number }>(await t.send('POST', '/branches', { code: 'east', name: 'East' }))).id;
  const dvd = (await json<{ id: number }>(await t.send('POST', '/item-types', { code: 'dvd', name: 'DVD' }))).id;
  const child = (
    await json<{ id: number }>(await t.send('POST', '/patron-categories', { code: 'child', name: 'Child' }))
  ).id;
  const rule = (await json<{ id: number }>(await t.send('POST', '/loan-rules', { item_type_id: dvd, loan_period: 7 })))
    .id;
  // A branch's closed date, a long way off (closures are for today or later).
  const closure = (
    await json<{ id: number }>(await t.send('POST', `/branches/${east}/closures`, { date: '2999-01-01' }))
  ).id;
  // A copy handed in at East, away from its home: in transit, which a librarian receives.
  const travelling = await addBook(t, 'Travelling Tales', 1993, author);
  const away = await borrowed(t.as(borrower.token), travelling);
  expect((await t.send('PATCH', `/loans/${away.id}`, { status: 'returned', branch_id: east })).status).toBe(200);
  const inTransit = `/copies/${away.copy_id}`;

  // A PIN a librarian may remove, and a wrong one counted, which a librarian may clear.
  expect((await t.send('PUT', `/users/${borrower.id}/pin`, { pin: '2468' })).status).toBe(200);
  await t.database.db.execute(sql`update users set pin_failures = 1 where id = ${borrower.id}`);

  // A charge on the member's account, which a librarian may waive.
  const charged = await t.send('POST', `/users/${member.id}/account/charges`, { amount: 150, reason: 'a new card' });
  expect(charged.status).toBe(201);
  const charge = charged.headers.get('location') as string;

  const callers: Record<string, TestClient> = { anonymous: t.anonymous, member: asMember, librarian: t };
  const paths = [
    '/',
    '/books?page=1&per_page=5',
    `/books/${lent}`,
    `/books/${untouched}`,
    `/books/${held}`,
    `/books/${lent}/author`,
    copiesOfUntouched,
    copy,
    inTransit,
    `/books/${held}/holds?page=1`,
    hold,
    '/authors?page=1',
    `/authors/${author}`,
    `/authors/${lonelyAuthor}`,
    `/authors/${author}/books?page=1`,
    '/loans?page=1',
    loan,
    '/users?page=1',
    `/users/${member.id}`,
    `/users/${borrower.id}`,
    `/users/${member.id}/loans?page=1`,
    `/users/${member.id}/holds?page=1`,
    `/users/${member.id}/tokens`,
    token,
    `/users/${member.id}/account`,
    `/users/${member.id}/account/payments`,
    charge,
    '/branches?page=1',
    `/branches/${east}`,
    `/branches/${east}/closures?page=1`,
    `/branches/${east}/closures/${closure}`,
    '/patron-categories?page=1',
    `/patron-categories/${child}`,
    '/item-types?page=1',
    `/item-types/${dvd}`,
    '/loan-rules?page=1',
    `/loan-rules/${rule}`,
    '/desk',
    '/desk/checkins',
  ];
  for (const [who, client] of Object.entries(callers)) {
    for (const path of paths) {
      const response = await client.request(path);
      if (response.status === 200) documents.push({ who, path, doc: await json<Doc>(response) });
    }
  }
  // Signing in through a browser session answers the root with `logout`.
  const session = await t.anonymous.send('POST', '/session', { token: member.token });
  expect(session.status).toBe(200);
  documents.push({ who: 'member (session)', path: 'POST /session', doc: await json<Doc>(session) });

  const root = await json<RootDocument>(await t.anonymous.request('/'));
  const response = await t.anonymous.request(linkHref(root, 'profile') as string);
  expect(response.status).toBe(200);
  profile = await json<ProfileDocument>(response);
});
afterAll(() => t.close());

/** Whether a path matches a URI template's path (`/books/{id}`). */
function matches(template: string, href: string): boolean {
  const path = new URL(href, 'http://x').pathname;
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+');
  return new RegExp(`^${pattern}$`).test(path);
}

/** What a field is, whatever its value: its type, bounds and label (the name is the profile's key). */
function typeOf(field: { name?: string; value?: unknown; options?: unknown }): object {
  const { name: _name, value: _value, options: _options, ...rest } = field;
  return rest;
}

describe('the profile', () => {
  it('is linked from the root as profile, for every caller and in every format', async () => {
    for (const client of [t.anonymous, t]) {
      const root = await json<RootDocument>(await client.request('/'));
      expect(linkHref(root, 'profile')).toBe('/profile');
      const hal = await json<HalDocument>(await client.request('/', { headers: { Accept: 'application/hal+json' } }));
      expect(halHref(hal, 'profile')).toBe('/profile');
    }
    const head = await t.anonymous.request('/');
    expect(head.headers.get('link')).toContain('</profile>; rel="profile"');
  });

  it('describes every rel and every control of the vocabulary, and nothing else', () => {
    expect(profile.name).toBe('Catalogue profile');
    expect(Object.keys(profile.vocabulary.rels)).toEqual(Object.keys(relVocabulary));
    expect(Object.keys(profile.vocabulary.controls)).toEqual(Object.keys(controlVocabulary));
    for (const [name, entry] of Object.entries(relVocabulary)) {
      expect(profile.vocabulary.rels[name]).toEqual({ means: entry.means });
    }
    for (const [name, entry] of Object.entries(controlVocabulary)) {
      const described = present(profile.vocabulary.controls[name], name);
      expect(described).toMatchObject({ does: entry.does, method: entry.method });
      expect(Object.keys(described.targets).length, `targets of ${name}`).toBeGreaterThan(0);
      // Where it appears is gathered from each place it is declared: one sentence per target.
      for (const [path, target] of Object.entries<{ appears: string }>(described.targets)) {
        expect(target.appears, `${name} at ${path}`).toMatch(/\w/);
        expect(described.appears).toContain(`${path}: ${target.appears}`);
      }
    }
    expect(profile.links).toEqual([
      { rel: 'self', href: '/profile' },
      { rel: 'service-desc', href: '/openapi.json', title: 'OpenAPI description' },
    ]);
    expect(profile.controls).toEqual({});
  });

  it('states the fields of a control with the types and bounds of the input definitions', () => {
    const { create, edit, update, search } = profile.vocabulary.controls;
    expect(create?.targets['/books']).toEqual({
      appears: 'on the books collection and an author\u2019s books, for librarians',
      contentType: 'application/json',
      fields: {
        title: { type: 'string', required: true, maxLength: 500, title: 'Title' },
        publication_year: { type: 'integer', required: true, min: -3000, max: 2100, title: 'Year' },
        author_id: { type: 'integer', required: true, min: 1, title: 'Author' },
        isbn: { type: 'string', required: false, format: 'isbn', nullable: true, title: 'ISBN' },
        language: { type: 'string', required: false, format: 'language', nullable: true, title: 'Language' },
        subjects: {
          type: 'string',
          required: false,
          maxLength: 200,
          multiple: true,
          maxItems: 20,
          nullable: true,
          title: 'Subjects',
        },
        publisher: { type: 'string', required: false, maxLength: 200, nullable: true, title: 'Publisher' },
      },
    });
    expect(Object.keys(profile.book_fields)).toEqual(['isbn', 'language', 'subjects', 'publisher', 'clearing']);
    // PUT and PATCH both change only the fields sent: neither requires any.
    for (const control of [update, edit]) {
      for (const field of Object.values(present(control?.targets['/books/{id}'], 'a change of a book').fields)) {
        expect((field as { required: boolean }).required).toBe(false);
      }
    }
    expect(profile.vocabulary.controls.return?.targets['/loans/{id}']?.fields).toEqual({
      status: { type: 'string', required: true, enum: ['returned'], title: 'Status' },
      branch_id: { type: 'integer', required: false, min: 1, max: 2147483647, title: 'Returned at branch' },
    });
    expect(Object.keys(present(search?.targets['/authors'], 'the search of authors').fields)).toEqual([
      'query',
      'filter',
      'sort',
      'page',
      'per_page',
      'fields',
    ]);
    expect(search?.targets['/books']?.fields.per_page).toMatchObject({ type: 'integer', min: 1, max: 100 });
    expect(profile.vocabulary.controls.delete?.targets['/books/{id}']).toEqual({
      appears: 'on a book without loan history, for librarians',
      fields: {},
    });
  });

  it('describes every control any caller is offered: same method, a target it submits to, the same fields', () => {
    const seen = new Set<string>();
    let offered = 0;
    for (const { who, path, doc } of documents) {
      for (const [name, control] of Object.entries<ControlDoc>(doc.controls ?? {})) {
        const where = `${name} on ${path} as ${who}`;
        const described = present(profile.vocabulary.controls[name], where);
        expect(control.method, where).toBe(described.method);
        const target = Object.keys(described.targets).find((template) => matches(template, control.href));
        expect(target, `${where}: ${control.href} among ${Object.keys(described.targets)}`).toBeDefined();
        const fields = present(described.targets[target as string], where).fields;
        for (const field of control.fields) {
          expect(typeOf(fields[field.name] ?? {}), `${where}: field ${field.name}`).toEqual(typeOf(field));
        }
        // Borrowing offers `borrower_id` and `copy_id` to librarians only; setting a PIN asks for `current_pin`
        // only of a patron changing their own; every other control offers all its fields.
        if (name !== 'borrow' && name !== 'set-pin')
          expect(
            control.fields.map((f) => f.name),
            where,
          ).toEqual(Object.keys(fields));
        seen.add(`${name} ${target}`);
        offered += 1;
      }
    }
    expect(offered).toBeGreaterThan(40);
    const described = Object.entries(profile.vocabulary.controls).flatMap(([name, entry]) =>
      Object.keys(entry.targets).map((target) => `${name} ${target}`),
    );
    expect([...seen].sort()).toEqual(described.sort());
  });

  it('comes in HAL-FORMS and HTML too, as any resource does', async () => {
    const hal = await t.anonymous.request('/profile', { headers: { Accept: 'application/prs.hal-forms+json' } });
    expect(hal.status).toBe(200);
    const halDoc = await json<HalDocument>(hal);
    expect(halHref(halDoc, 'service-desc')).toBe('/openapi.json');
    expect(halDoc.vocabulary).toEqual(profile.vocabulary);
    expect(halDoc._templates).toBeUndefined();

    const html = await t.anonymous.request('/profile', { headers: { Accept: 'text/html' } });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await html.text();
    expect(page).toContain('<h1>Catalogue profile</h1>');
    expect(page).toContain('<a rel="service-desc" href="/openapi.json">');
    for (const name of Object.keys(controlVocabulary)) expect(page).toContain(`data-field="${name}"`);
  });

  it('has absolute targets behind a proxy', async () => {
    const base = 'https://example.org/catalogue';
    const proxied = await openTestCatalogue({ publicUrl: base });
    try {
      const root = await json<RootDocument>(await proxied.anonymous.request('/'));
      const href = linkHref(root, 'profile') as string;
      expect(href).toBe(`${base}/profile`);
      const doc = await json<ProfileDocument>(await proxied.anonymous.request(href.slice(base.length)));
      expect(linkHref(doc, 'self')).toBe(`${base}/profile`);
      expect(Object.keys(present(doc.vocabulary.controls.borrow, 'borrow').targets)).toEqual([
        `${base}/books/{id}/borrow`,
      ]);
    } finally {
      await proxied.close();
    }
  });
});

describe('what must be sent', () => {
  it('the profile, the OpenAPI document and the validator agree for every control with a body', async () => {
    const openapi = await json<OpenApiDocument>(await t.request('/openapi.json'));
    let compared = 0;
    for (const [name, control] of Object.entries(profile.vocabulary.controls)) {
      for (const [path, target] of Object.entries(control.targets)) {
        if (target.contentType === undefined) continue;
        const operation = present(
          openapi.paths[path]?.[String(control.method).toLowerCase()],
          `${name} ${path} in OpenAPI`,
        );
        const schema = present(
          operation.requestBody?.content['application/json'],
          `${name} ${path}: a JSON body`,
        ).schema;
        const required = Object.entries(target.fields)
          .filter(([, field]) => field.required)
          .map(([field]) => field);
        expect(schema.required ?? [], `${name} ${control.method} ${path}`).toEqual(required);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5);
  });

  it('PUT and PATCH each accept a single field and change only it', async () => {
    const author = await addAuthor(t, 'Partial Putnam');
    const book = await addBook(t, 'One Field At A Time', 1970, author);
    for (const method of ['PUT', 'PATCH']) {
      const year = method === 'PUT' ? 1971 : 1972;
      const changed = await t.send(method, `/books/${book}`, { publication_year: year });
      expect(changed.status).toBe(200);
      expect(await json<BookDocument>(changed)).toMatchObject({
        title: 'One Field At A Time',
        publication_year: year,
        author_id: author,
      });
    }
  });
});
