/**
 * Screenshots of the browsable view for the docs: starts the service on a throw-away in-memory database
 * with the sample catalogue, signs in through the page's own form, and saves PNGs of the main pages, the
 * circulation desk and a patron's account into docs/screenshots/. Run with `npm run screenshots` (needs Chromium at /usr/bin/chromium, or set CHROMIUM).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { chromium, type Page } from 'playwright-core';

const OUT = new URL('../docs/screenshots/', import.meta.url);
const WIDTH = 1100;
const PHONE = { width: 375, height: 800 };
const TOKEN = `screenshots-${randomBytes(16).toString('hex')}`;

/** Starts the service as an operator would, on a free port, and answers its root URL. */
async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: new URL('..', import.meta.url),
    env: {
      ...process.env,
      DATABASE_URL: '',
      CATALOGUE_DATA_DIR: 'memory://',
      CATALOGUE_SEED: 'sample',
      CATALOGUE_PUBLIC_URL: '',
      CATALOGUE_LOG: 'requests',
      CATALOGUE_ADMIN_TOKEN: TOKEN,
      PORT: '0',
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /"url":"([^"]+)".*"message":"listening"/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', () => reject(new Error(`the service exited:\n${output}`)));
  });
  return { child, url };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

const { child, url: base } = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const saved: string[] = [];

/** Saves the whole page (or the full-width band holding one element) as docs/screenshots/<name>.png. */
async function shoot(page: Page, name: string, selector?: string): Promise<void> {
  const path = new URL(`${name}.png`, OUT).pathname;
  // A box measured at the top of the page is where the full-page screenshot has it.
  await page.evaluate('window.scrollTo(0, 0)');
  const box = selector ? await page.locator(selector).boundingBox() : null;
  if (box) {
    const margin = 16;
    const width = page.viewportSize()?.width ?? WIDTH;
    const clip = { x: 0, y: Math.max(0, box.y - margin), width, height: box.height + 2 * margin };
    await page.screenshot({ path, fullPage: true, clip });
  } else {
    await page.screenshot({ path, fullPage: true });
  }
  saved.push(path);
}

/** Sends a request as a librarian's API client would (or, with `token`, as that user's). */
async function api(path: string, body?: unknown, method?: string, token = TOKEN): Promise<Response> {
  const response = await fetch(new URL(path, base), {
    method: method ?? (body === undefined ? 'GET' : 'POST'),
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** Reads an answer's JSON as the document `T` the caller names. */
async function json<T>(response: Response): Promise<T> {
  return (await response.json()) as T;
}

/** Signs in through the header: with a token (tucked under "Sign in with a token"), or a library card and PIN. */
async function signIn(page: Page, card?: { number: string; pin: string }): Promise<void> {
  await page.goto(base);
  const login = page.locator('form[rel="login"]');
  if (card) {
    await login.locator('[name="card_number"]').fill(card.number);
    await login.locator('[name="pin"]').fill(card.pin);
  } else {
    await login.locator('details.more summary').click();
    await login.locator('[name="token"]').fill(TOKEN);
  }
  await login.locator('button[type="submit"]').click();
  await page.locator('form[rel="logout"]').waitFor();
}

/** Scans a code into a desk field as a barcode scanner does (the code, then Enter) and waits for its answer. */
async function scan(page: Page, field: string, code: string): Promise<void> {
  await page.locator(field).fill(code);
  await page.locator(field).press('Enter');
  await page.locator(`#desk-results li[data-barcode="${code}"]`).locator('.title, .reason').first().waitFor();
}

try {
  await mkdir(OUT, { recursive: true });
  // A few loans, so that the loans page has something to show.
  const { data: lent } = (await (await api('/books?sort=-publication_year&page=1&per_page=3')).json()) as {
    data: { id: number }[];
  };
  for (const book of lent) await api(`/books/${book.id}/borrow`, {});
  const { data: found } = (await (await api('/books?query=hobbit&page=1')).json()) as {
    data: { id: number; author_id: number }[];
  };
  const hobbit = found[0];
  if (!hobbit) throw new Error('the sample catalogue has no Hobbit');

  const context = await browser.newContext({ viewport: { width: WIDTH, height: 800 } });
  const page = await context.newPage();

  // As anyone arrives: the root, with sign-in and search.
  await page.goto(base);
  await shoot(page, 'root');

  // A patron's search, misspelt: did you mean, the results with their availability, the facets the page
  // asks for, and, where the catalogue suggests, the suggestions for a few letters typed.
  await page.locator('a[rel="books"]').click();
  const box = page.getByRole('search').getByLabel('Search titles and authors');
  await box.fill('jane austin');
  await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/query=jane/);
  if ((await page.getByRole('combobox', { name: 'Search titles and authors' }).count()) > 0) {
    await box.fill('');
    await box.pressSequentially('pers');
    await page.getByRole('listbox', { name: 'Suggestions' }).waitFor();
  }
  await shoot(page, 'search');

  // Signed in as a librarian: every control the role allows is a form.
  await signIn(page);
  await page.goto(new URL('/books', base).href);
  await shoot(page, 'books');
  await page.goto(new URL(`/books/${hobbit.id}`, base).href);
  await shoot(page, 'book');
  await page.goto(new URL(`/authors/${hobbit.author_id}`, base).href);
  await shoot(page, 'author');
  await page.goto(new URL('/loans', base).href);
  await shoot(page, 'loans');

  // A change the service refuses: the message sits next to the field it concerns.
  await page.goto(new URL(`/books/${hobbit.id}`, base).href);
  const edit = page.locator('form[rel="edit"]');
  await edit.locator('[name="title"]').fill('   ');
  await edit.locator('button[type="submit"]').click();
  await edit.locator('[data-error-for="title"]').waitFor({ state: 'visible' });
  await shoot(page, 'validation-error', 'section.controls');

  // Picking an author by name while adding a book: the form sends the author's id.
  await page.goto(new URL('/books', base).href);
  const create = page.locator('form[rel="create"]');
  await create.getByRole('combobox', { name: /Author/ }).pressSequentially('tol');
  await create.getByRole('option').first().waitFor();
  await shoot(page, 'picker', 'form[rel="create"]');

  // Deleting asks first.
  const { data: unlent } = (await (await api('/books?filter=available:true&sort=-id&page=1&per_page=1')).json()) as {
    data: { id: number }[];
  };
  await page.goto(new URL(`/books/${unlent[0]?.id}`, base).href);
  await page.locator('details.confirm summary').click();
  await shoot(page, 'delete-confirm', 'section.controls');

  // The same book on a phone.
  const phone = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  const phonePage = await phone.newPage();
  await signIn(phonePage);
  await phonePage.goto(new URL(`/books/${hobbit.id}`, base).href);
  await shoot(phonePage, 'book-phone');

  // The circulation desk. A patron with a library card, a PIN and an address; another, at East, with none;
  // a copy with a barcode to lend, a reference copy the lending rules keep in the library, and a copy out
  // with the patron that the one at East holds, so that checking it in at Main sends it to East.
  const east = await json<{ id: number }>(await api('/branches', { code: 'east', name: 'East branch' }));
  const reference = await json<{ id: number }>(await api('/item-types', { code: 'ref', name: 'Reference' }));
  await api('/loan-rules', { item_type_id: reference.id, lendable: false });
  const card = { number: '29000001', pin: '2468' };
  const ada = await json<{ id: number }>(
    await api('/users', { name: 'Ada Reader', role: 'member', card_number: card.number, email: 'ada@example.org' }),
  );
  await api(`/users/${ada.id}/pin`, { pin: card.pin }, 'PUT');
  const ben = await json<{ id: number }>(
    await api('/users', { name: 'Ben East', role: 'member', card_number: '29000002', home_branch_id: east.id }),
  );
  const tokenOf = async (id: number) =>
    (await json<{ token: string }>(await api(`/users/${id}/tokens`, { name: 'screenshots' }))).token;
  const barcode = { lend: '39000101', reference: '39000102', transit: '39000103' };
  const [travels, wanted] = lent;
  if (!travels || !wanted) throw new Error('the sample catalogue has too few books');
  await api(`/books/${hobbit.id}/copies`, { barcode: barcode.lend });
  const { data: others } = (await (await api('/books?query=pride&page=1')).json()) as { data: { id: number }[] };
  await api(`/books/${others[0]?.id ?? hobbit.id}/copies`, { barcode: barcode.reference, item_type_id: reference.id });
  // Its only other copy is out with the librarian: once Ada has this one, Ben's hold waits for it.
  await api(`/books/${travels.id}/copies`, { barcode: barcode.transit });
  await api('/desk/checkouts', { card_number: card.number, barcode: barcode.transit });
  await api(`/books/${travels.id}/holds`, {}, 'POST', await tokenOf(ben.id));
  // Ada waits for a book the librarian has out, collected at Main.
  await api(`/books/${wanted.id}/holds`, {}, 'POST', await tokenOf(ada.id));

  // Check-out: the card read, one copy lent, one refused with the rule's reason beside its barcode.
  await page.goto(new URL('/desk', base).href);
  await page.locator('#desk-card').fill(card.number);
  await page.locator('#desk-card').press('Enter');
  await page.waitForURL(/card_number=/);
  await scan(page, '#desk-check-out-barcode', barcode.lend);
  await scan(page, '#desk-check-out-barcode', barcode.reference);
  await shoot(page, 'desk-check-out');
  // Check-in: the copy Ben holds goes in transit to his branch.
  await page.goto(new URL('/desk/checkins', base).href);
  await scan(page, '#desk-check-in-barcode', barcode.transit);
  await shoot(page, 'desk-check-in');
  // What a librarian sees of a patron without an address: no notices are sent.
  await page.goto(new URL(`/users/${ben.id}`, base).href);
  await shoot(page, 'user-no-email');

  // My account, as Ada signs in with her card and PIN.
  const patron = await browser.newContext({ viewport: { width: WIDTH, height: 800 } });
  const patronPage = await patron.newPage();
  await signIn(patronPage, card);
  await patronPage.goto(new URL('/me', base).href);
  await shoot(patronPage, 'my-account');

  for (const path of saved) process.stdout.write(`saved ${path}\n`);
} finally {
  await browser.close();
  await stop(child);
}
