/**
 * Importing in real Chromium (Debian's, driven by playwright-core) against the real server process: a
 * librarian signs in through the page's own control, uploads a MARCXML file through the books page's
 * import form, sees the report, and follows it to a book it created.
 */
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type RunningServer, startServer } from './support/server.js';

const LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
};
const FILE = fileURLToPath(new URL('./fixtures/marc/mixed.xml', import.meta.url));

let server: RunningServer | undefined;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ env: { CATALOGUE_SEED: 'none' } });
  browser = await chromium.launch(LAUNCH);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
}, 60_000);

describe('a librarian importing records in the browser', () => {
  it('uploads a MARCXML file from the books page and sees the report', async () => {
    const context = await browser.newContext();
    const errors: string[] = [];
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));

    await page.goto(server?.url as string);
    await page.locator('header').getByText('Sign in with a token').click();
    await page.locator('header').getByLabel('Token').fill(ADMIN_TOKEN);
    await page.locator('header').getByRole('button', { name: 'Sign in' }).click();
    await page.locator('header form[rel="logout"]').waitFor();
    await page.locator('a[rel="books"]').click();
    await page.waitForURL(/\/books\?/);

    const form = page.locator('form[rel="import"]');
    await form.getByLabel('File').setInputFiles(FILE);
    await form.getByRole('button', { name: 'Import records' }).click();
    await page.waitForURL(/\/imports$/);

    // The report: its counts, each record's outcome, and links to what it created.
    const field = (name: string) => page.locator(`dd[data-field="${name}"]`).first().textContent();
    expect((await field('imported'))?.trim()).toBe('2');
    expect((await field('refused'))?.trim()).toBe('4');
    expect(await page.locator('body').textContent()).toContain('no title');
    const created = page.locator('a[rel="book"]', { hasText: 'The hobbit: or, There and back again' }).first();
    await created.click();
    await page.waitForURL(/\/books\/\d+$/);
    expect(await page.locator('h1').textContent()).toContain('The hobbit: or, There and back again');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
