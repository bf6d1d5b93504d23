/**
 * The scripts in docs/examples, run as a reader would run them: each as its own process, given only the
 * root URL of a live server, a member's token and a keyword. Each must find, borrow and return a book,
 * say so, and exit 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json } from './support/catalogue.js';
import {
  type BookDocument,
  controlOf,
  type LinkDoc,
  type LoanDocument,
  type NewTokenDocument,
  type PageDoc,
  type RootDocument,
  type TokenDocument,
  type UserDocument,
} from './support/documents.js';
import { runScript } from './support/script.js';
import { ADMIN_TOKEN, type RunningServer, startServer } from './support/server.js';

let server: RunningServer;
let member: { id: number; token: string; loans: string };

/** A JSON request to the live server as the librarian, by an href it gave; its body is the document `T`. */
async function asLibrarian<T>(href: string, method = 'GET', body?: unknown) {
  const response = await fetch(new URL(href, server.url), {
    method,
    headers: {
      Authorization: `Bearer ${ADMIN_TOKEN}`,
      Accept: 'application/json',
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  expect(response.ok, `${method} ${href}: ${response.status}`).toBe(true);
  return { body: await json<T>(response), location: response.headers.get('location') };
}

const linkOf = (doc: { links: LinkDoc[] }, rel: string) => doc.links.find((l) => l.rel === rel)?.href as string;

beforeAll(async () => {
  server = await startServer();
  // A member with a token, made over HTTP by the librarian, by links and controls.
  const root = (await asLibrarian<RootDocument>('/')).body;
  const users = (await asLibrarian<PageDoc<UserDocument>>(linkOf(root, 'users'))).body;
  const created = await asLibrarian<UserDocument>(controlOf(users, 'create').href, 'POST', {
    name: 'Example Reader',
    role: 'member',
  });
  const user = created.body;
  const tokens = (await asLibrarian<PageDoc<TokenDocument>>(linkOf(user, 'tokens'))).body;
  const token = (await asLibrarian<NewTokenDocument>(controlOf(tokens, 'create').href, 'POST', { name: 'examples' }))
    .body.token;
  member = { id: user.id, token, loans: linkOf(user, 'loans') };
}, 120_000);
afterAll(() => server?.stop());

/** Runs an example script to its end, with none of its settings in the environment: only its arguments. */
const run = (script: string, args: string[]) =>
  runScript(script, args, { CATALOGUE_URL: '', CATALOGUE_TOKEN: '', CATALOGUE_KEYWORD: '' });

describe.each([
  ['docs/examples/agent.ts', 'hobbit', 'The Hobbit'],
  ['docs/examples/ketting.ts', 'quixote', 'Don Quixote'],
])('%s', (script, keyword, title) => {
  it(`finds a book by "${keyword}", borrows it and returns it, from the root URL and a token alone`, async () => {
    const before = (await asLibrarian<PageDoc<LoanDocument>>(member.loans)).body.meta.total_items;
    const result = await run(script, [server.url, member.token, keyword]);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    expect(result.stdout).toContain(`searched for "${keyword}"`);
    expect(result.stdout).toMatch(new RegExp(`found "${title}[^"]*" at /books/\\d+, which offers borrow`));
    expect(result.stdout).toMatch(/borrowed it: loan \/loans\/\d+, status active, due \d{4}-/);
    expect(result.stdout).toMatch(/returned it: loan \/loans\/\d+, status returned/);
    // The member's loans say the same: one more, already returned.
    const loans = (await asLibrarian<PageDoc<LoanDocument>>(member.loans)).body;
    expect(loans.meta.total_items).toBe(before + 1);
    const loanPath = /borrowed it: loan (\/loans\/\d+)/.exec(result.stdout)?.[1] as string;
    const loan = (await asLibrarian<LoanDocument>(loanPath)).body;
    expect(loan).toMatchObject({ borrower_id: member.id, status: 'returned' });
  });
});

describe('docs/examples/agent.ts with a title to add (a librarian)', () => {
  it("adds the book through the books collection's create control, then finds, borrows and returns it", async () => {
    const title = 'Agentic Cartography';
    const result = await run('docs/examples/agent.ts', [server.url, ADMIN_TOKEN, 'cartography', title]);
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    const added = /added "Agentic Cartography" by [^\n]+ at (\/books\/\d+)/.exec(result.stdout);
    expect(added, result.stdout).not.toBeNull();
    expect(result.stdout).toContain(`found "${title}" at ${added?.[1]}, which offers borrow`);
    expect(result.stdout).toMatch(/returned it: loan \/loans\/\d+, status returned/);
    const book = (await asLibrarian<BookDocument>(added?.[1] as string)).body;
    expect(book).toMatchObject({ title, available: true, publication_year: new Date().getUTCFullYear() });
  });
});

describe('without a root URL, token or keyword', () => {
  it.each(['docs/examples/agent.ts', 'docs/examples/ketting.ts'])('%s prints its usage and exits 2', async (script) => {
    const result = await run(script, []);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('usage:');
  });
});
