/**
 * A user holds at most MAX_TOKENS_PER_USER tokens, browser sessions included: past it, creating one is
 * 409 and changes nothing, the tokens page stops offering `create`, and concurrent creations cannot
 * overshoot, because the database counts under a lock on the user. Over HTTP, on PGlite and PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TOKENS_PER_USER } from '../src/domain/limits.js';
import { addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { type PageDoc, present, type TokenDocument } from './support/documents.js';
import { expectError } from './support/errors.js';

let t: TestCatalogue;
beforeAll(async () => {
  t = await openTestCatalogue();
});
afterAll(() => t.close());

async function tokenCount(userId: number): Promise<number> {
  return (await json<PageDoc<TokenDocument>>(await t.request(`/users/${userId}/tokens`))).data.length;
}

describe('tokens per user', () => {
  it('the migration and the documented limit name the same number', () => {
    const migration = readFileSync('drizzle/0006_tokens_per_user_cap.sql', 'utf8');
    expect(migration).toContain(`>= ${MAX_TOKENS_PER_USER} THEN`);
  });

  it(`a member mints tokens up to ${MAX_TOKENS_PER_USER}; one more is 409, and create is no longer offered`, async () => {
    const member = await addUser(t, 'Token Collector');
    const as = t.as(member.token);
    for (let n = 1; n < MAX_TOKENS_PER_USER; n++) {
      const created = await as.send('POST', `/users/${member.id}/tokens`, { name: `t${n}` });
      expect(created.status).toBe(201);
    }
    expect(await tokenCount(member.id)).toBe(MAX_TOKENS_PER_USER);
    const page = await json<PageDoc<TokenDocument>>(await as.request(`/users/${member.id}/tokens`));
    expect(Object.keys(page.controls ?? {})).not.toContain('create');

    const refused = await as.send('POST', `/users/${member.id}/tokens`, { name: 'one too many' });
    await expectError(refused, 409, { message: `at most ${MAX_TOKENS_PER_USER} tokens`, details: [] });
    // Signing in from a browser makes a token too: refused the same way.
    const signIn = await t.anonymous.send('POST', '/session', { token: member.token });
    expect(signIn.status).toBe(409);
    expect(await tokenCount(member.id)).toBe(MAX_TOKENS_PER_USER);

    // Revoking one makes room for one, and the control comes back.
    const newest = present(page.data.at(-1), 'the newest token');
    expect((await as.request(`/users/${member.id}/tokens/${newest.id}`, { method: 'DELETE' })).status).toBe(204);
    const again = await json<PageDoc<TokenDocument>>(await as.request(`/users/${member.id}/tokens`));
    expect(Object.keys(again.controls ?? {})).toContain('create');
    expect((await as.send('POST', `/users/${member.id}/tokens`, { name: 'room again' })).status).toBe(201);
  });

  it('ten concurrent creations with room for three: exactly three succeed, the rest 409', async () => {
    const member = await addUser(t, 'Token Racer');
    const as = t.as(member.token);
    for (let n = 1; n < MAX_TOKENS_PER_USER - 3; n++) {
      expect((await as.send('POST', `/users/${member.id}/tokens`, { name: `t${n}` })).status).toBe(201);
    }
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => as.send('POST', `/users/${member.id}/tokens`, { name: `race ${i}` })),
    ).then((responses) => responses.map((response) => response.status));
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 409)).toHaveLength(7);
    expect(await tokenCount(member.id)).toBe(MAX_TOKENS_PER_USER);
  });
});
