/**
 * A browser session is a credential of its own: signing in creates it (the cookie never holds the token
 * typed in), signing out revokes it, so a cookie copied before sign-out no longer works, while the token
 * used to sign in keeps working for its API client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUser, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { PageDoc, RootDocument, TokenDocument } from './support/documents.js';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const SAME_SITE = { 'Sec-Fetch-Site': 'same-origin' };

let t: TestCatalogue;
beforeAll(async () => {
  t = await openTestCatalogue();
});
afterAll(() => t.close());

async function signIn(token: string): Promise<string> {
  const response = await t.anonymous.request('/session', {
    method: 'POST',
    headers: { ...FORM, ...SAME_SITE },
    body: new URLSearchParams({ token }).toString(),
  });
  expect(response.status).toBe(200);
  return (response.headers.get('set-cookie') ?? '').split(';')[0] as string;
}

const controlsFor = async (cookie: string) =>
  Object.keys((await json<RootDocument>(await t.anonymous.request('/', { headers: { Cookie: cookie } }))).controls);

describe('browser sessions', () => {
  it('the cookie carries a session credential of its own, not the token signed in with', async () => {
    const member = await addUser(t, 'Session Member');
    const cookie = await signIn(member.token);
    expect(cookie).toMatch(/^catalogue_session=cat_/);
    expect(cookie).not.toContain(member.token);
    expect(await controlsFor(cookie)).toContain('logout');
    const tokens = await json<PageDoc<TokenDocument>>(await t.as(member.token).request(`/users/${member.id}/tokens`));
    expect(tokens.data.map((token: { name: string }) => token.name)).toContain('browser session');
  });

  it('signing out revokes the session: the same cookie sent again is signed out, the token still works', async () => {
    const member = await addUser(t, 'Signing Out Member');
    const cookie = await signIn(member.token);
    const out = await t.anonymous.request('/session', { method: 'DELETE', headers: { Cookie: cookie, ...SAME_SITE } });
    expect(out.status).toBe(200);

    // A copy of the cookie taken before signing out (another tab, a stolen header) is worth nothing now.
    const replay = await t.anonymous.request('/', { headers: { Cookie: cookie } });
    expect(replay.headers.get('set-cookie')).toMatch(/^catalogue_session=; Max-Age=0/);
    expect(Object.keys((await json<RootDocument>(replay)).controls)).toContain('login');
    const write = await t.anonymous.request('/authors', {
      method: 'POST',
      headers: { Cookie: cookie, ...SAME_SITE, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Written After Sign Out' }),
    });
    expect(write.status).toBe(401);

    expect((await t.as(member.token).request(`/users/${member.id}`)).status).toBe(200);
    const tokens = await json<PageDoc<TokenDocument>>(await t.as(member.token).request(`/users/${member.id}/tokens`));
    expect(tokens.data.map((token: { name: string }) => token.name)).not.toContain('browser session');
  });

  it('two browsers signed in with one token are two sessions: signing out of one leaves the other', async () => {
    const member = await addUser(t, 'Two Browsers');
    const laptop = await signIn(member.token);
    const phone = await signIn(member.token);
    expect(laptop).not.toBe(phone);
    await t.anonymous.request('/session', { method: 'DELETE', headers: { Cookie: laptop, ...SAME_SITE } });
    expect(await controlsFor(laptop)).toContain('login');
    expect(await controlsFor(phone)).toContain('logout');
  });
});

describe('a stale session cookie', () => {
  it('is cleared on error responses too, not only on successful ones', async () => {
    const member = await addUser(t, 'Stale Cookie Member');
    const cookie = await signIn(member.token);
    await t.anonymous.request('/session', { method: 'DELETE', headers: { Cookie: cookie, ...SAME_SITE } });
    for (const [path, status] of [
      ['/books/987654', 404],
      ['/books?page=0', 400],
      ['/loans', 401],
    ] as const) {
      const response = await t.anonymous.request(path, { headers: { Cookie: cookie } });
      expect(response.status, path).toBe(status);
      expect(response.headers.get('set-cookie'), path).toMatch(/^catalogue_session=; Max-Age=0/);
    }
  });
});
