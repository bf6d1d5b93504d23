/**
 * The lending lists over HTTP (issue 45), on PGlite and (with DATABASE_URL) PostgreSQL: branches, patron
 * categories and item types created, changed and deleted through their controls by librarians; the default
 * moved in one request; every refusal (a bad or taken code, a branch open on no day, the default or an
 * entry in use deleted, the default unset) in the error shape with nothing changed; who may read which;
 * and users and copies with their category, home branch and item type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAuthor,
  addBook,
  addUser,
  json,
  linkHref,
  openTestCatalogue,
  type TestCatalogue,
} from './support/catalogue.js';
import {
  type CollectionDocument,
  type CopyDocument,
  controlOf,
  type HalDocument,
  type ListEntryDocument,
  type Member,
  type PageDoc,
  present,
  type RootDocument,
  submit,
  type UserDocument,
} from './support/documents.js';
import { expectError } from './support/errors.js';

let t: TestCatalogue;
let member: { id: number; token: string };
beforeAll(async () => {
  t = await openTestCatalogue();
  member = await addUser(t, 'List Reader');
});
afterAll(() => t.close());

const LISTS = [
  { path: '/branches', rel: 'branches', seeded: 'main' },
  { path: '/patron-categories', rel: 'patron_categories', seeded: 'adult' },
  { path: '/item-types', rel: 'item_types', seeded: 'book' },
] as const;

async function entries(path: string): Promise<CollectionDocument<ListEntryDocument>> {
  return json<CollectionDocument<ListEntryDocument>>(await t.request(`${path}?sort=id`));
}

async function defaultOf(path: string): Promise<Member<ListEntryDocument>> {
  const found = (await entries(path)).filter((entry) => entry.is_default);
  expect(found, `${path} has one default`).toHaveLength(1);
  return present(found[0], `${path}'s default`);
}

async function created(path: string, body: Record<string, unknown>): Promise<ListEntryDocument> {
  const response = await t.send('POST', path, body);
  expect(response.status, `${path} ${JSON.stringify(body)}`).toBe(201);
  return json<ListEntryDocument>(response);
}

describe.each(LISTS)('$path', ({ path, rel, seeded }) => {
  it('starts with the migration\u2019s default, and the librarian\u2019s root links to it', async () => {
    const root = await json<RootDocument>(await t.request('/'));
    expect(linkHref(root, rel)).toBe(`${path}?page=1&per_page=20`);
    expect((await defaultOf(path)).code).toBe(seeded);
  });

  it('adds, reads, changes (with If-Match) and deletes an entry through its controls', async () => {
    const page = await json<PageDoc<ListEntryDocument>>(await t.request(`${path}?page=1`));
    const create = controlOf(page, 'create');
    expect(create.method).toBe('POST');
    expect(create.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['code', 'name', 'is_default']));
    const response = await submit(t, create, { code: 'x-1', name: 'Entry One', is_default: false });
    expect(response.status).toBe(201);
    const entry = await json<ListEntryDocument>(response);
    expect(response.headers.get('location')).toBe(`${path}/${entry.id}`);
    expect(entry).toMatchObject({ code: 'x-1', name: 'Entry One', is_default: false });
    expect(Object.keys(entry.controls).sort()).toEqual(['delete', 'edit', 'update']);

    const read = await t.request(`${path}/${entry.id}`);
    const etag = read.headers.get('etag') as string;
    expect(etag).toBeTruthy();
    const edited = await t.send('PATCH', `${path}/${entry.id}`, { name: 'Entry Renamed' }, { 'If-Match': etag });
    expect(edited.status).toBe(200);
    expect((await json<ListEntryDocument>(edited)).name).toBe('Entry Renamed');
    // The old tag is stale now: 412, and nothing changes.
    await expectError(await t.send('PATCH', `${path}/${entry.id}`, { name: 'Stale' }, { 'If-Match': etag }), 412);
    expect((await json<ListEntryDocument>(await t.request(`${path}/${entry.id}`))).name).toBe('Entry Renamed');

    const fresh = await json<ListEntryDocument>(await t.request(`${path}/${entry.id}`));
    expect((await submit(t, controlOf(fresh, 'delete'))).status).toBe(204);
    await expectError(await t.request(`${path}/${entry.id}`), 404);
  });

  it('moves the default in one request, on creation and on a change; unsetting the default is 422', async () => {
    const before = await defaultOf(path);
    const first = await created(path, { code: 'moved-1', name: 'Made Default', is_default: true });
    expect(first.is_default).toBe(true);
    expect((await defaultOf(path)).id).toBe(first.id);
    // The old default lost it, and with it its version moved on.
    const old = await json<ListEntryDocument>(await t.request(`${path}/${before.id}`));
    expect(old.is_default).toBe(false);

    const back = await t.send('PATCH', `${path}/${before.id}`, { is_default: true });
    expect(back.status).toBe(200);
    expect((await defaultOf(path)).id).toBe(before.id);

    const unset = await t.send('PATCH', `${path}/${before.id}`, { is_default: false });
    await expectError(unset, 422, { details: ['is_default'] });
    expect((await defaultOf(path)).id).toBe(before.id);
  });

  it('refuses the default\u2019s deletion (409, and no delete control on it)', async () => {
    const current = await defaultOf(path);
    const doc = await json<ListEntryDocument>(await t.request(`${path}/${current.id}`));
    expect(doc.controls.delete).toBeUndefined();
    await expectError(await t.send('DELETE', `${path}/${current.id}`, undefined), 409, { message: /default/ });
    expect((await defaultOf(path)).id).toBe(current.id);
  });

  it('refuses a taken code (409) and a code of the wrong shape (400), changing nothing', async () => {
    const before = await entries(path);
    await expectError(await t.send('POST', path, { code: seeded, name: 'Twin' }), 409, { message: /code/ });
    for (const code of ['Upper', '-dash-first', 'with space', 'x'.repeat(33), '']) {
      const response = await t.send('POST', path, { code, name: 'Bad Code' });
      await expectError(response, 400, { details: ['code'], what: code });
    }
    await expectError(await t.send('POST', path, { code: 'no-name' }), 400, { details: ['name'] });
    await expectError(await t.send('POST', path, { code: 'blank', name: '   ' }), 400, { details: ['name'] });
    expect(await entries(path)).toEqual(before);
  });

  it('lists with paging, sort and filter as other collections do', async () => {
    await created(path, { code: 'zz-last', name: 'Aardvark First' });
    const byName = await json<PageDoc<ListEntryDocument>>(await t.request(`${path}?sort=name&page=1&per_page=1`));
    expect(byName.data.map((e) => e.name)).toEqual(['Aardvark First']);
    expect(byName.meta.per_page).toBe(1);
    const defaults = await json<CollectionDocument<ListEntryDocument>>(
      await t.request(`${path}?filter=is_default:true`),
    );
    expect(defaults).toHaveLength(1);
    await expectError(await t.request(`${path}?filter=colour:red`), 400);
  });
});

describe('who may read and change the lists', () => {
  it('anonymous callers are asked to sign in (401) everywhere', async () => {
    for (const { path } of LISTS) {
      await expectError(await t.anonymous.request(path), 401, { what: path });
      await expectError(await t.anonymous.request(`${path}/1`), 401, { what: path });
      await expectError(await t.anonymous.send('POST', path, { code: 'anon', name: 'Anon' }), 401, { what: path });
    }
  });

  it('members read the branches (no controls) but not the other lists (403), and change none', async () => {
    const reader = t.as(member.token);
    const root = await json<RootDocument>(await reader.request('/'));
    expect(linkHref(root, 'branches')).toBeDefined();
    for (const rel of ['patron_categories', 'item_types', 'loan_rules'])
      expect(linkHref(root, rel), rel).toBeUndefined();
    const branches = await json<PageDoc<ListEntryDocument>>(await reader.request('/branches?page=1'));
    expect(branches.data.length).toBeGreaterThan(0);
    expect(branches.controls.create).toBeUndefined();
    const main = await json<ListEntryDocument>(await reader.request('/branches/1'));
    expect(main.open_days).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
    expect(main.controls).toEqual({});
    await expectError(await reader.send('POST', '/branches', { code: 'm', name: 'Member Branch' }), 403);
    await expectError(await reader.send('PATCH', '/branches/1', { name: 'Renamed By Member' }), 403);
    await expectError(await reader.send('DELETE', '/branches/1', undefined), 403);
    for (const path of ['/patron-categories', '/item-types']) {
      await expectError(await reader.request(path), 403, { what: path });
      await expectError(await reader.request(`${path}/1`), 403, { what: path });
      await expectError(await reader.send('POST', path, { code: 'm', name: 'By Member' }), 403, { what: path });
    }
    expect((await json<ListEntryDocument>(await t.request('/branches/1'))).name).toBe('Main library');
  });
});

describe('branches', () => {
  it('take their opening days by name, stored as ISO weekdays; none or an unknown day is refused', async () => {
    const branch = await created('/branches', { code: 'east', name: 'East', open_days: ['saturday', 'monday'] });
    expect(branch.open_days).toEqual(['monday', 'saturday']);
    const changed = await t.send('PATCH', `/branches/${branch.id}`, { open_days: ['sunday'] });
    expect((await json<ListEntryDocument>(changed)).open_days).toEqual(['sunday']);
    await expectError(await t.send('PATCH', `/branches/${branch.id}`, { open_days: [] }), 422, {
      details: ['open_days'],
    });
    await expectError(await t.send('PATCH', `/branches/${branch.id}`, { open_days: ['someday'] }), 400, {
      details: ['open_days'],
    });
    await expectError(await t.send('POST', '/branches', { code: 'closed', name: 'Closed', open_days: [] }), 422);
    expect((await json<ListEntryDocument>(await t.request(`/branches/${branch.id}`))).open_days).toEqual(['sunday']);
    expect((await entries('/branches')).some((b) => b.code === 'closed')).toBe(false);
  });

  it('the create control offers the days as typed choices (HAL-FORMS)', async () => {
    const page = await json<HalDocument>(
      await t.request('/branches?page=1', { headers: { Accept: 'application/prs.hal-forms+json' } }),
    );
    const create = present(page._templates?.create, 'the create template');
    const days = create.properties.find((p) => p.name === 'open_days');
    expect(days).toBeDefined();
    expect(JSON.stringify(days)).toContain('sunday');
  });
});

describe('users and copies name their category, home branch and item type', () => {
  it('a user shows and takes patron_category_id and home_branch_id; an unknown id is 422', async () => {
    const staff = present(
      (await entries('/patron-categories')).find((c) => c.code === 'staff'),
      'the staff category',
    );
    const east = await created('/branches', { code: 'west', name: 'West' });
    const response = await t.send('POST', '/users', {
      name: 'Placed Patron',
      role: 'member',
      patron_category_id: staff.id,
      home_branch_id: east.id,
    });
    expect(response.status).toBe(201);
    const user = await json<UserDocument>(response);
    expect(user).toMatchObject({ patron_category_id: staff.id, home_branch_id: east.id });
    expect(linkHref(user, 'patron_category')).toBe(`/patron-categories/${staff.id}`);
    expect(linkHref(user, 'home_branch')).toBe(`/branches/${east.id}`);

    await expectError(await t.send('PATCH', `/users/${user.id}`, { home_branch_id: 999999 }), 422, {
      details: ['home_branch_id'],
    });
    await expectError(
      await t.send('POST', '/users', { name: 'Nobody', role: 'member', patron_category_id: 999999 }),
      422,
      {
        details: ['patron_category_id'],
      },
    );
    expect((await json<UserDocument>(await t.request(`/users/${user.id}`))).home_branch_id).toBe(east.id);
    // A user with none named gets the defaults; the branch named by a user is in use.
    const plain = await json<UserDocument>(await t.send('POST', '/users', { name: 'Plain Patron', role: 'member' }));
    expect(plain.patron_category_id).toBe((await defaultOf('/patron-categories')).id);
    // A librarian is staff unless named otherwise, as the migration made every librarian.
    const librarian = await json<UserDocument>(
      await t.send('POST', '/users', { name: 'New Librarian', role: 'librarian' }),
    );
    expect(librarian.patron_category_id).toBe(staff.id);
    await expectError(await t.send('DELETE', `/branches/${east.id}`, undefined), 409, { message: /in use/ });
    expect((await json<ListEntryDocument>(await t.request(`/branches/${east.id}`))).code).toBe('west');
  });

  it('a member sees their own category and branch, linked only to the branch', async () => {
    const me = await json<UserDocument>(await t.as(member.token).request(`/users/${member.id}`));
    expect(me.patron_category_id).toBeTypeOf('number');
    expect(linkHref(me, 'home_branch')).toBe(`/branches/${me.home_branch_id}`);
    expect(linkHref(me, 'patron_category')).toBeUndefined();
  });

  it('a copy shows and takes branch_id and item_type_id; update (PUT) moves it, PATCH still withdraws it', async () => {
    const bookId = await addBook(t, 'Placed Copies', 2001, await addAuthor(t, 'Copy Placer'));
    const dvd = await created('/item-types', { code: 'dvd', name: 'DVD' });
    const north = await created('/branches', { code: 'north', name: 'North' });
    const added = await t.send('POST', `/books/${bookId}/copies`, {
      barcode: 'PLACED-1',
      branch_id: north.id,
      item_type_id: dvd.id,
    });
    expect(added.status).toBe(201);
    const copy = await json<CopyDocument>(added);
    expect(copy).toMatchObject({ branch_id: north.id, item_type_id: dvd.id });
    expect(linkHref(copy, 'branch')).toBe(`/branches/${north.id}`);
    expect(linkHref(copy, 'item_type')).toBe(`/item-types/${dvd.id}`);
    expect(copy.controls.update?.method).toBe('PUT');
    expect(copy.controls.update?.fields.map((f) => [f.name, f.value])).toEqual([
      ['branch_id', north.id],
      ['item_type_id', dvd.id],
    ]);
    expect(copy.controls.withdraw?.fields.map((f) => f.name)).toEqual(['status']);

    await expectError(await t.send('POST', `/books/${bookId}/copies`, { item_type_id: 999999 }), 422, {
      details: ['item_type_id'],
    });
    const main = await defaultOf('/branches');
    const moved = await submit(t, controlOf(copy, 'update'), { branch_id: main.id });
    expect(moved.status).toBe(200);
    expect((await json<CopyDocument>(moved)).branch_id).toBe(main.id);
    const back = await t.send('PUT', `/copies/${copy.id}`, { branch_id: north.id });
    expect(back.status).toBe(200);
    await expectError(await t.send('PUT', `/copies/${copy.id}`, { branch_id: 999999 }), 422, {
      details: ['branch_id'],
    });
    // PATCH withdraws, and takes nothing else.
    await expectError(await t.send('PATCH', `/copies/${copy.id}`, { status: 'withdrawn', branch_id: main.id }), 400, {
      details: ['branch_id'],
    });
    await expectError(await t.as(member.token).send('PUT', `/copies/${copy.id}`, { branch_id: main.id }), 403);
    const unchanged = await json<CopyDocument>(await t.request(`/copies/${copy.id}`));
    expect(unchanged).toMatchObject({ branch_id: north.id, item_type_id: dvd.id, status: 'available' });
    // An item type a copy has is in use.
    await expectError(await t.send('DELETE', `/item-types/${dvd.id}`, undefined), 409, { message: /in use/ });

    const withdrawn = await t.send('PATCH', `/copies/${copy.id}`, { status: 'withdrawn' });
    expect(withdrawn.status).toBe(200);
    expect((await json<CopyDocument>(withdrawn)).status).toBe('withdrawn');
  });
});
