/**
 * Library cards and PINs: a patron signs in with their card number and PIN; wrong PINs are counted by the
 * database and lock the card for a while, however many guesses arrive at once; librarians set and reset
 * PINs, a patron changes their own with the current one; librarians see a card's lock and clear it, and
 * remove a PIN; card numbers are unique; and no answer ever
 * carries a PIN or its hash.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { openDatabase } from '../src/db/client.js';
import { users } from '../src/db/schema/index.js';
import { addUser, json, openTestCatalogue, type TestCatalogue, type TestClient } from './support/catalogue.js';
import { fixedClock, MINUTE_MS } from './support/clock.js';
import { type FreshDatabase, freshDatabase } from './support/database.js';
import type { ErrorDocument, RootDocument, UserDocument } from './support/documents.js';
import { runScript } from './support/script.js';

const SAME_SITE = { 'Sec-Fetch-Site': 'same-origin' };
/** Fewer than the default, so that a lockout takes few guesses; the lock lasts the default. */
const ATTEMPTS = 4;
const LOCKOUT_MINUTES = 15;

const clock = fixedClock('2026-03-02T10:00:00Z');
let t: TestCatalogue;
beforeAll(async () => {
  t = await openTestCatalogue({ clock, pins: { attempts: ATTEMPTS, lockoutMinutes: LOCKOUT_MINUTES } });
});
afterAll(() => t.close());

let cards = 0;
/** A member with a token, a library card of their own and, unless `null`, this PIN (set by the librarian). */
async function patron(pin: string | null = '2468') {
  cards += 1;
  const card = `2900${String(cards).padStart(6, '0')}`;
  const member = await addUser(t, `Card Holder ${cards}`);
  const carded = await t.send('PATCH', `/users/${member.id}`, { card_number: card });
  expect(carded.status, await carded.clone().text()).toBe(200);
  if (pin !== null) expect((await t.send('PUT', `/users/${member.id}/pin`, { pin })).status).toBe(200);
  return { ...member, card, pin: pin ?? '' };
}

function signIn(card_number: unknown, pin: unknown): Promise<Response> {
  return t.anonymous.send('POST', '/session', { card_number, pin }, SAME_SITE);
}

async function errorOf(response: Response) {
  return (await json<ErrorDocument>(response)).error;
}

describe('signing in with a library card and PIN', () => {
  it('sets the session cookie, and the root names the card holder', async () => {
    const holder = await patron('7391');
    const response = await signIn(holder.card, '7391');
    expect(response.status).toBe(200);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] as string;
    expect(cookie).toMatch(/^catalogue_session=cat_/);
    const root = await json<RootDocument>(await t.anonymous.request('/', { headers: { Cookie: cookie } }));
    expect(root.links.find((link) => link.rel === 'me')).toMatchObject({
      href: `/users/${holder.id}`,
      title: `Card Holder ${cards}`,
    });
    expect(Object.keys(root.controls)).toContain('logout');
  });

  it('from the HTML header as a form post too', async () => {
    const holder = await patron('5555');
    const response = await t.anonymous.request('/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html', ...SAME_SITE },
      body: new URLSearchParams({ card_number: holder.card, pin: '5555', token: '' }).toString(),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('set-cookie')).toMatch(/^catalogue_session=cat_/);
  });

  it('answers a wrong PIN, an unknown card and a card without a PIN alike: 401, one message, no cookie', async () => {
    const holder = await patron('1357');
    const withoutPin = await patron(null);
    const answers = [
      await signIn(holder.card, '1358'),
      await signIn('0000000000', '1357'),
      await signIn(withoutPin.card, '1357'),
    ];
    const messages = new Set<string>();
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get('set-cookie')).toBeNull();
      messages.add((await errorOf(answer)).message);
    }
    expect(messages.size).toBe(1);
    expect([...messages][0]).not.toMatch(/unknown|no pin|wrong pin/i);
  });

  it('still takes a token, for scripts and tests', async () => {
    const member = await addUser(t, 'Token Holder');
    const response = await t.anonymous.send('POST', '/session', { token: member.token }, SAME_SITE);
    expect(response.status).toBe(200);
  });

  it.each([
    [{ card_number: '2900000001' }, 'pin'],
    [{ pin: '1234' }, 'card_number'],
    [{ card_number: '', pin: '1234' }, 'card_number'],
    [{ card_number: 2900000001, pin: '1234' }, 'card_number'],
    [{ card_number: '2900000001', pin: 1234 }, 'pin'],
    [{ card_number: 'x'.repeat(65), pin: '1234' }, 'card_number'],
    [{ card_number: '2900000001', pin: '1234', token: 'cat_x' }, 'token'],
  ])('refuses a malformed sign-in %j: 400 naming %s, no cookie', async (body, field) => {
    const response = await t.anonymous.send('POST', '/session', body, SAME_SITE);
    expect(response.status).toBe(400);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(Object.keys((await errorOf(response)).details ?? {})).toContain(field);
  });
});

describe('the lockout after wrong PINs', () => {
  it(`locks the card after ${ATTEMPTS} wrong PINs in a row, refuses even the right PIN, and lifts after the time`, async () => {
    const holder = await patron('8642');
    for (let i = 0; i < ATTEMPTS; i++) expect((await signIn(holder.card, '0000')).status).toBe(401);
    const locked = await signIn(holder.card, '8642');
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBe(String(LOCKOUT_MINUTES * 60));
    expect(locked.headers.get('set-cookie')).toBeNull();
    expect((await errorOf(locked)).message).toMatch(/locked/);

    clock.advance((LOCKOUT_MINUTES - 1) * MINUTE_MS);
    const stillLocked = await signIn(holder.card, '8642');
    expect(stillLocked.status).toBe(429);
    expect(stillLocked.headers.get('retry-after')).toBe('60');

    clock.advance(MINUTE_MS);
    expect((await signIn(holder.card, '8642')).status).toBe(200);
  });

  it('a right PIN starts the count again', async () => {
    const holder = await patron('9753');
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < ATTEMPTS - 1; i++) expect((await signIn(holder.card, '0000')).status).toBe(401);
      expect((await signIn(holder.card, '9753')).status).toBe(200);
    }
  });

  it('counts exactly the limit of wrong PINs sent at once, and locks the card on the last', async () => {
    const holder = await patron('3141');
    const extra = 5;
    const answers = await Promise.all(
      Array.from({ length: ATTEMPTS + extra }, (_, i) => signIn(holder.card, String(5000 + i))),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(ATTEMPTS).fill(401), ...Array(extra).fill(429)]);
    expect((await signIn(holder.card, '3141')).status).toBe(429);
    clock.advance(LOCKOUT_MINUTES * MINUTE_MS);
    expect((await signIn(holder.card, '3141')).status).toBe(200);
  });
});

describe('a card\u2019s lock on its user, and clearing it (librarians)', () => {
  type LockedUser = UserDocument & { pin_failures?: number; pin_locked_until?: string | null };
  const read = async (id: number, as: TestClient = t) => json<LockedUser>(await as.request(`/users/${id}`));

  it('a librarian sees the wrong PINs counted and until when the card is locked, and unlocks it', async () => {
    const holder = await patron('2580');
    const clean = await read(holder.id);
    expect(clean).toMatchObject({ pin_failures: 0, pin_locked_until: null });
    expect(clean.controls['unlock-pin']).toBeUndefined();

    for (let i = 0; i < 2; i++) await signIn(holder.card, '0000');
    const counted = await read(holder.id);
    expect(counted).toMatchObject({ pin_failures: 2, pin_locked_until: null });
    expect(counted.controls['unlock-pin']).toMatchObject({ method: 'DELETE', href: `/users/${holder.id}/pin/lock` });

    for (let i = 2; i < ATTEMPTS; i++) await signIn(holder.card, '0000');
    const until = new Date(clock.now().getTime() + LOCKOUT_MINUTES * MINUTE_MS).toISOString();
    expect(await read(holder.id)).toMatchObject({ pin_failures: ATTEMPTS, pin_locked_until: until });
    // The patron sees neither the count nor the control, and may not clear it.
    const me = t.as(holder.token);
    const own = await read(holder.id, me);
    expect(own).not.toHaveProperty('pin_failures');
    expect(own).not.toHaveProperty('pin_locked_until');
    expect(own.controls['unlock-pin']).toBeUndefined();
    expect((await me.request(`/users/${holder.id}/pin/lock`, { method: 'DELETE' })).status).toBe(403);
    expect((await signIn(holder.card, '2580')).status).toBe(429);
    // Every format carries the control: HAL-FORMS' templates, and a form in HTML.
    const halForms = await t.request(`/users/${holder.id}`, { headers: { Accept: 'application/prs.hal-forms+json' } });
    expect(JSON.stringify(await halForms.json())).toContain(`/users/${holder.id}/pin/lock`);
    const html = await (await t.request(`/users/${holder.id}`, { headers: { Accept: 'text/html' } })).text();
    expect(html).toContain(`/users/${holder.id}/pin/lock`);
    expect(html).toContain('Unlock card');

    const unlocked = await t.request(`/users/${holder.id}/pin/lock`, { method: 'DELETE' });
    expect(unlocked.status).toBe(200);
    const after = await json<LockedUser>(unlocked);
    expect(after).toMatchObject({ id: holder.id, pin_failures: 0, pin_locked_until: null, pin_set: true });
    expect(after.controls['unlock-pin']).toBeUndefined();
    expect((await signIn(holder.card, '2580')).status).toBe(200);
    const again = await t.request(`/users/${holder.id}/pin/lock`, { method: 'DELETE' });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toMatch(/not locked/);
    expect((await t.request('/users/99999999/pin/lock', { method: 'DELETE' })).status).toBe(404);
  });

  it('a lock that has run out is no lock, and counts no wrong PIN', async () => {
    const holder = await patron('1470');
    for (let i = 0; i < ATTEMPTS; i++) await signIn(holder.card, '0000');
    expect((await read(holder.id)).pin_locked_until).not.toBeNull();
    clock.advance(LOCKOUT_MINUTES * MINUTE_MS);
    const ran = await read(holder.id);
    expect(ran).toMatchObject({ pin_failures: 0, pin_locked_until: null });
    expect(ran.controls['unlock-pin']).toBeUndefined();
  });

  it('a librarian removes a PIN: the card signs in no more, its lock goes with it, and it can be set again', async () => {
    const holder = await patron('3690');
    const me = t.as(holder.token);
    expect((await read(holder.id, me)).controls['remove-pin']).toBeUndefined();
    expect((await me.request(`/users/${holder.id}/pin`, { method: 'DELETE' })).status).toBe(403);
    for (let i = 0; i < ATTEMPTS; i++) await signIn(holder.card, '0000');
    const before = await read(holder.id);
    expect(before.controls['remove-pin']).toMatchObject({ method: 'DELETE', href: `/users/${holder.id}/pin` });

    const removed = await t.request(`/users/${holder.id}/pin`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    const after = await json<LockedUser>(removed);
    expect(after).toMatchObject({ pin_set: false, pin_failures: 0, pin_locked_until: null });
    expect(after.controls['remove-pin']).toBeUndefined();
    expect(after.controls['set-pin']?.title).toBe('Set PIN');
    expect((await signIn(holder.card, '3690')).status).toBe(401);
    const again = await t.request(`/users/${holder.id}/pin`, { method: 'DELETE' });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toMatch(/no PIN/);
    expect((await t.request('/users/99999999/pin', { method: 'DELETE' })).status).toBe(404);

    expect((await t.send('PUT', `/users/${holder.id}/pin`, { pin: '3691' })).status).toBe(200);
    expect((await signIn(holder.card, '3691')).status).toBe(200);
  });
});

describe('setting a PIN', () => {
  it('a librarian sets one: pin_set, and the card signs in with it; a reset lifts a lockout', async () => {
    const holder = await patron(null);
    const before = await json<UserDocument>(await t.request(`/users/${holder.id}`));
    expect(before.pin_set).toBe(false);
    expect(before.controls['set-pin']?.fields.map((field) => field.name)).toEqual(['pin']);

    const set = await t.send('PUT', `/users/${holder.id}/pin`, { pin: '4321' });
    expect(set.status).toBe(200);
    expect(await json<UserDocument>(set)).toMatchObject({ id: holder.id, pin_set: true });
    expect((await signIn(holder.card, '4321')).status).toBe(200);

    for (let i = 0; i < ATTEMPTS; i++) await signIn(holder.card, '0000');
    expect((await signIn(holder.card, '4321')).status).toBe(429);
    expect((await t.send('PUT', `/users/${holder.id}/pin`, { pin: 'correct horse battery' })).status).toBe(200);
    expect((await signIn(holder.card, 'correct horse battery')).status).toBe(200);
    expect((await signIn(holder.card, '4321')).status).toBe(401);
  });

  it('a patron changes their own with the current PIN; without it, or with a wrong one, nothing changes', async () => {
    const holder = await patron('1111');
    const me = t.as(holder.token);
    const own = await json<UserDocument>(await me.request(`/users/${holder.id}`));
    const control = own.controls['set-pin'];
    expect(control).toMatchObject({ method: 'PUT', href: `/users/${holder.id}/pin` });
    expect(control?.fields.map((field) => [field.name, field.required])).toEqual([
      ['current_pin', true],
      ['pin', true],
    ]);

    const without = await me.send('PUT', `/users/${holder.id}/pin`, { pin: '2222' });
    expect(without.status).toBe(400);
    expect((await errorOf(without)).details).toHaveProperty('current_pin');
    const wrong = await me.send('PUT', `/users/${holder.id}/pin`, { current_pin: '9999', pin: '2222' });
    expect(wrong.status).toBe(403);
    expect((await signIn(holder.card, '2222')).status).toBe(401);

    const changed = await me.send('PUT', `/users/${holder.id}/pin`, { current_pin: '1111', pin: '2222' });
    expect(changed.status).toBe(200);
    expect((await signIn(holder.card, '1111')).status).toBe(401);
    expect((await signIn(holder.card, '2222')).status).toBe(200);
  });

  it('a wrong current PIN counts towards the lockout like a sign-in', async () => {
    const holder = await patron('1212');
    const me = t.as(holder.token);
    for (let i = 0; i < ATTEMPTS; i++) {
      expect((await me.send('PUT', `/users/${holder.id}/pin`, { current_pin: '0000', pin: '3434' })).status).toBe(403);
    }
    const locked = await me.send('PUT', `/users/${holder.id}/pin`, { current_pin: '1212', pin: '3434' });
    expect(locked.status).toBe(429);
    expect((await signIn(holder.card, '1212')).status).toBe(429);
    clock.advance(LOCKOUT_MINUTES * MINUTE_MS);
  });

  it('a member cannot set another user\u2019s PIN, nor see the control: the user is not there for them', async () => {
    const holder = await patron('5656');
    const other = await addUser(t, 'Nosy Member');
    const asOther = t.as(other.token);
    expect((await asOther.request(`/users/${holder.id}`)).status).toBe(404);
    const refused = await asOther.send('PUT', `/users/${holder.id}/pin`, { pin: '0000', current_pin: '5656' });
    expect(refused.status).toBe(404);
    expect((await t.anonymous.send('PUT', `/users/${holder.id}/pin`, { pin: '0000' })).status).toBe(401);
    expect((await signIn(holder.card, '0000')).status).toBe(401);
    expect((await signIn(holder.card, '5656')).status).toBe(200);
    // Their own document offers them their own PIN only.
    const own = await json<UserDocument>(await asOther.request(`/users/${other.id}`));
    expect(own.controls['set-pin']?.href).toBe(`/users/${other.id}/pin`);
  });

  it.each([
    [{ pin: '123' }, 'pin'],
    [{ pin: 'x'.repeat(129) }, 'pin'],
    [{ pin: 1234 }, 'pin'],
    [{ pin: '    ' }, 'pin'],
    [{}, 'pin'],
    [{ pin: '1234', colour: 'red' }, 'colour'],
  ])('refuses a PIN %j: 400 naming %s, and the PIN stays', async (body, field) => {
    const holder = await patron('6789');
    const response = await t.send('PUT', `/users/${holder.id}/pin`, body);
    expect(response.status).toBe(400);
    expect(Object.keys((await errorOf(response)).details ?? {})).toContain(field);
    expect((await signIn(holder.card, '6789')).status).toBe(200);
  });
});

describe('cards and contact on the user', () => {
  it('a librarian sets the card, email and language; the user and librarians see them, with pin_set', async () => {
    const created = await t.send('POST', '/users', {
      name: 'Contact Patron',
      role: 'member',
      card_number: '3100000001',
      email: 'patron@example.org',
      language: 'fr-CA',
    });
    expect(created.status).toBe(201);
    const user = await json<UserDocument>(created);
    expect(user).toMatchObject({
      card_number: '3100000001',
      email: 'patron@example.org',
      language: 'fr-CA',
      pin_set: false,
    });
    const fields = user.controls.edit?.fields.map((field) => field.name);
    expect(fields).toEqual(expect.arrayContaining(['card_number', 'email', 'language']));
    const token = await json<{ token: string }>(await t.send('POST', `/users/${user.id}/tokens`, {}));
    const own = await json<UserDocument>(await t.as(token.token).request(`/users/${user.id}`));
    expect(own).toMatchObject({ card_number: '3100000001', email: 'patron@example.org', pin_set: false });

    const cleared = await t.send('PATCH', `/users/${user.id}`, { email: null, language: null });
    expect(await json<UserDocument>(cleared)).toMatchObject({ email: null, language: null });
  });

  it('a card number is one user\u2019s: a second is 409 in the error shape, from the index, even at once', async () => {
    const first = await patron('1234');
    const second = await addUser(t, 'Second Card Holder');
    const taken = await t.send('PATCH', `/users/${second.id}`, { card_number: first.card, name: 'Renamed' });
    expect(taken.status).toBe(409);
    expect((await errorOf(taken)).details).toHaveProperty('card_number');
    const after = await json<UserDocument>(await t.request(`/users/${second.id}`));
    expect(after).toMatchObject({ name: 'Second Card Holder', card_number: null });

    const racing = await Promise.all(
      [1, 2, 3].map((i) => t.send('POST', '/users', { name: `Racer ${i}`, role: 'member', card_number: '3200000009' })),
    );
    expect(racing.map((response) => response.status).sort()).toEqual([201, 409, 409]);
  });

  it.each([
    [{ card_number: '' }, 'card_number'],
    [{ card_number: '   ' }, 'card_number'],
    [{ card_number: '9'.repeat(65) }, 'card_number'],
    [{ card_number: 12345 }, 'card_number'],
    [{ email: 'not an address' }, 'email'],
    [{ email: 'a@b.example\r\nBcc: someone@example.org' }, 'email'],
    [{ language: 'français' }, 'language'],
    [{ language: 42 }, 'language'],
  ])('refuses %j: 400 naming %s, nothing changed', async (body, field) => {
    const holder = await patron('4545');
    const before = await json<UserDocument>(await t.request(`/users/${holder.id}`));
    const response = await t.send('PATCH', `/users/${holder.id}`, { ...body, name: 'Should Not Stick' });
    expect(response.status).toBe(400);
    expect(Object.keys((await errorOf(response)).details ?? {})).toContain(field);
    const after = await json<UserDocument>(await t.request(`/users/${holder.id}`));
    expect(after).toEqual(before);
  });
});

describe('what no answer carries', () => {
  it('neither the PIN nor its hash, in JSON, HAL, HAL-FORMS or HTML', async () => {
    const pin = 'unguessable-pin-8080';
    const holder = await patron(pin);
    const [row] = await t.database.db.select({ hash: users.pinHash }).from(users).where(eq(users.id, holder.id));
    const hash = row?.hash as string;
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    const salt = hash.split('$')[4] as string;

    const set = await t.send('PUT', `/users/${holder.id}/pin`, { pin });
    const signedIn = await signIn(holder.card, pin);
    const bodies = [await set.text(), await signedIn.text()];
    for (const accept of ['application/json', 'application/hal+json', 'application/prs.hal-forms+json', 'text/html']) {
      for (const path of [`/users/${holder.id}`, '/users?per_page=100', '/users', '/']) {
        for (const client of [t, t.as(holder.token)]) {
          const response = await client.request(path, { headers: { Accept: accept } });
          bodies.push(await response.text());
        }
      }
    }
    for (const body of bodies) {
      expect(body).not.toContain(pin);
      expect(body).not.toContain(salt);
      expect(body).not.toContain('scrypt$');
    }
  });
});

describe('the HTML view', () => {
  it('offers a library card and a PIN, and a token under "Sign in with a token"', async () => {
    const html = await (await t.anonymous.request('/', { headers: { Accept: 'text/html' } })).text();
    const form = /<form rel="login"[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
    expect(form).toMatch(/<label for="header-login-card_number">Library card/);
    expect(form).toMatch(/<input id="header-login-card_number" name="card_number"[^>]*autocomplete="username"/);
    expect(form).toMatch(
      /<input id="header-login-pin" name="pin"[^>]*type="password"[^>]*autocomplete="current-password"/,
    );
    expect(form).toMatch(/<details class="more"><summary>Sign in with a token<\/summary>[\s\S]*name="token"/);
  });

  it('offers a patron their own PIN to change: the current one and a new one, typed unseen', async () => {
    const holder = await patron('7070');
    const html = await (
      await t.as(holder.token).request(`/users/${holder.id}`, { headers: { Accept: 'text/html' } })
    ).text();
    const form = /<form rel="set-pin"[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
    expect(form).toMatch(
      /<input id="control-set-pin-current_pin"[^>]*type="password"[^>]*autocomplete="current-password"/,
    );
    expect(form).toMatch(/<input id="control-set-pin-pin"[^>]*type="password"[^>]*autocomplete="new-password"/);
  });
});

describe('the operator CLI', () => {
  let database: FreshDatabase;
  beforeAll(async () => {
    database = await freshDatabase({ persistent: true, label: 'cards' });
  });
  afterAll(() => database.drop());
  const env = () => ({ ...database.env, CATALOGUE_SEED: 'none', CATALOGUE_ADMIN_TOKEN: '' });

  it('users add --card --pin --email: the user signs in with the card, and no PIN is printed', async () => {
    const args = ['--name', 'Desk Patron', '--card', '4100000001', '--pin', '9182', '--email', 'desk@example.org'];
    const run = await runScript('src/cli.ts', ['users', 'add', ...args], env());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^card 4100000001 \(PIN set\)$/m);
    expect(run.stdout).not.toContain('9182');

    const again = await runScript('src/cli.ts', ['users', 'add', '--name', 'Copycat', '--card', '4100000001'], env());
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/another user has that library card number/);
    const short = await runScript('src/cli.ts', ['users', 'add', '--name', 'Shorty', '--pin', '12'], env());
    expect(short.code).toBe(2);
    expect(short.stderr).toBe('catalogue: the PIN given with --pin must be at least 4 characters.\n');

    const opened = await openDatabase(database.target);
    try {
      const app = createApp({ database: opened });
      const response = await app.request('/session', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...SAME_SITE },
        body: JSON.stringify({ card_number: '4100000001', pin: '9182' }),
      });
      expect(response.status).toBe(200);
      const names = await opened.db.select({ name: users.name, email: users.email }).from(users);
      expect(names).toContainEqual({ name: 'Desk Patron', email: 'desk@example.org' });
      expect(names.map((user) => user.name)).not.toContain('Copycat');
    } finally {
      await opened.close();
    }
  }, 120_000);
});
