/**
 * A catalogue never loses its last librarian, and the operator's token always means a librarian: the
 * database refuses a change that would leave nobody able to manage users (409), also when two librarians
 * demote each other at the same moment, and the owner of CATALOGUE_ADMIN_TOKEN cannot be demoted.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareDatabase } from '../src/db/migrate.js';
import { json, LIBRARIAN_TOKEN, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import {
  type CollectionDocument,
  type ErrorDocument,
  linkOf,
  type NewTokenDocument,
  type RootDocument,
  type UserDocument,
} from './support/documents.js';
import { expectError } from './support/errors.js';

let t: TestCatalogue;
beforeAll(async () => {
  // The test catalogue's librarian signs in with LIBRARIAN_TOKEN, registered as the operator's token.
  t = await openTestCatalogue();
});
afterAll(() => t.close());

async function me(token: string, catalogue: TestCatalogue = t) {
  const root = await json<RootDocument>(await catalogue.as(token).request('/'));
  return json<UserDocument>(await catalogue.as(token).request(linkOf(root, 'me').href));
}

async function addLibrarian(name: string) {
  const created = await json<UserDocument>(await t.send('POST', '/users', { name, role: 'librarian' }));
  const token = await json<NewTokenDocument>(await t.send('POST', `/users/${created.id}/tokens`, {}));
  return { id: created.id, token: token.token };
}

const librarians = async () =>
  (await json<CollectionDocument<UserDocument>>(await t.request('/users?filter=role:librarian')))
    .map((u: { id: number }) => u.id)
    .sort();

describe('the last librarian', () => {
  it('the operator cannot be demoted, even by another librarian (409), and stays a librarian', async () => {
    const operator = await me(LIBRARIAN_TOKEN);
    const other = await addLibrarian('Second Librarian');
    const response = await t.as(other.token).send('PATCH', `/users/${operator.id}`, { role: 'member' });
    await expectError(response, 409, { message: /operator's token/ });
    expect((await me(LIBRARIAN_TOKEN)).role).toBe('librarian');
  });

  it('a librarian who is not the last may step down; the last one may not (409)', async () => {
    const a = await addLibrarian('Librarian A');
    const b = await addLibrarian('Librarian B');
    expect((await t.as(a.token).send('PATCH', `/users/${b.id}`, { role: 'member' })).status).toBe(200);
    expect((await t.as(a.token).send('PATCH', `/users/${a.id}`, { role: 'member' })).status).toBe(200);
    // What remains: the operator and "Second Librarian", neither of whom may now leave them at none.
    expect(await librarians()).not.toContain(a.id);
  });
});

describe('the last librarian, with no operator token', () => {
  let c: TestCatalogue;
  beforeAll(async () => {
    c = await openTestCatalogue();
    // Take the operator's mark off, as on a catalogue started without CATALOGUE_ADMIN_TOKEN.
    await c.database.db.execute(sql`update tokens set operator = false`);
  });
  afterAll(() => c.close());

  it('the only librarian cannot demote themselves (409) and stays a librarian', async () => {
    const self = await me(LIBRARIAN_TOKEN, c);
    const response = await c.send('PATCH', `/users/${self.id}`, { role: 'member' });
    expect(response.status).toBe(409);
    expect((await json<ErrorDocument>(response)).error).toEqual({
      code: 409,
      message: expect.stringMatching(/at least one librarian/),
    });
    expect((await json<UserDocument>(await c.request(`/users/${self.id}`))).role).toBe('librarian');
  });

  it('two librarians demoting each other at the same moment: exactly one wins, one librarian remains', async () => {
    const self = await me(LIBRARIAN_TOKEN, c);
    const created = await json<UserDocument>(
      await c.send('POST', '/users', { name: 'Peer Librarian', role: 'librarian' }),
    );
    const peerToken = (await json<NewTokenDocument>(await c.send('POST', `/users/${created.id}/tokens`, {}))).token;
    const [first, second] = await Promise.all([
      c.send('PATCH', `/users/${created.id}`, { role: 'member' }),
      c.as(peerToken).send('PATCH', `/users/${self.id}`, { role: 'member' }),
    ]);
    // One wins. The other is refused by the database (409) or, if it arrived after the winner had
    // committed, already as a member (403): never may both succeed.
    const statuses = [first.status, second.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const remaining = await json<CollectionDocument<UserDocument>>(
      await (first.status === 200 ? c : c.as(peerToken)).request('/users?filter=role:librarian'),
    );
    expect(remaining).toHaveLength(1);
  });
});

describe('the operator token at start-up', () => {
  it("makes its owner a librarian again, and marks the token as the operator's, whatever happened since", async () => {
    const c = await openTestCatalogue();
    try {
      const self = await me(LIBRARIAN_TOKEN, c);
      // As on a catalogue whose operator token predates the mark: another librarian may demote its owner.
      await c.database.db.execute(sql`update tokens set operator = false`);
      const created = await json<UserDocument>(
        await c.send('POST', '/users', { name: 'Acting Librarian', role: 'librarian' }),
      );
      const acting = (await json<NewTokenDocument>(await c.send('POST', `/users/${created.id}/tokens`, {}))).token;
      expect((await c.as(acting).send('PATCH', `/users/${self.id}`, { role: 'member' })).status).toBe(200);
      expect((await me(LIBRARIAN_TOKEN, c)).role).toBe('member');

      await prepareDatabase(c.database, { seedSample: false, adminToken: LIBRARIAN_TOKEN });
      expect((await me(LIBRARIAN_TOKEN, c)).role).toBe('librarian');
      expect((await c.as(acting).send('PATCH', `/users/${self.id}`, { role: 'member' })).status).toBe(409);
    } finally {
      await c.close();
    }
  });
});
