/**
 * The service as an operator runs it: `node --import tsx src/server.ts` as its own process, configured by
 * environment, logging one line per request, and stopping cleanly on SIGTERM. The first start prints a
 * librarian's token once; the operator CLI (`src/cli.ts`) adds users with tokens and revokes tokens.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { openDatabase } from '../src/db/client.js';
import type { DatabaseTarget } from '../src/db/target.js';
import { json } from './support/catalogue.js';
import { type FreshDatabase, freshDatabase } from './support/database.js';
import {
  ANONYMOUS_ROOT_RELS,
  type AuthorDocument,
  type BookDocument,
  type CollectionDocument,
  linkOf,
  type PageDoc,
  present,
  type RootDocument,
  type TokenDocument,
  type UserDocument,
} from './support/documents.js';
import { runScript } from './support/script.js';
import { type RunningServer, startServer } from './support/server.js';

/** A token the service generates: `cat_` and 43 characters of base64url. */
const GENERATED_TOKEN = /cat_[A-Za-z0-9_-]{43}/g;

/** Waits until the server has written `text` (its output reaches this process asynchronously). */
async function waitForOutput(server: RunningServer, text: string): Promise<void> {
  for (let waited = 0; !server.output().includes(text) && waited < 10_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The generated tokens in a text. */
const generatedTokens = (text: string) => [...text.matchAll(GENERATED_TOKEN)].map((m) => m[0]);

describe('the server process', () => {
  let server: RunningServer;

  // No CATALOGUE_ADMIN_TOKEN: the first start makes its own librarian token.
  beforeAll(async () => {
    server = await startServer({ env: { CATALOGUE_ADMIN_TOKEN: '' } });
  });
  afterAll(() => server?.kill());

  it('serves the root with links and controls, over a real socket', async () => {
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    const root = await json<RootDocument>(response);
    expect(root.links.map((l: { rel: string }) => l.rel)).toEqual(ANONYMOUS_ROOT_RELS);
    expect(Object.keys(root.controls)).toEqual(['login', 'search']);
  });

  it('loads the sample catalogue on first start', async () => {
    const page = await json<PageDoc<BookDocument>>(await fetch(new URL('/books?per_page=1', server.url)));
    expect(page.meta.total_items).toBeGreaterThanOrEqual(300);
    const authors = await json<PageDoc<AuthorDocument>>(await fetch(new URL('/authors?per_page=1', server.url)));
    expect(authors.meta.total_items).toBeGreaterThanOrEqual(30);
  });

  it('answers /health with 200 while the database answers', async () => {
    const response = await fetch(new URL('/health', server.url));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('logs one structured line per request, with status and duration', async () => {
    await fetch(new URL('/books/987654', server.url));
    const line = server
      .output()
      .split('\n')
      .filter((l) => l.includes('"path":"/books/987654"'))
      .map((l) => JSON.parse(l));
    expect(line).toHaveLength(1);
    expect(line[0]).toMatchObject({ message: 'request', method: 'GET', status: 404 });
    expect(typeof line[0].duration_ms).toBe('number');
  });

  it('prints a librarian token once on stdout on first start, outside the JSON log lines', () => {
    const stdout = server.stdout();
    const [token, ...more] = generatedTokens(server.output());
    expect(token, stdout).toBeDefined();
    expect(more).toEqual([]);
    expect(generatedTokens(stdout)).toEqual([token]);
    const lines = stdout.split('\n');
    const line = lines.find((l) => l.includes(token as string)) as string;
    expect(line.trim().startsWith('{')).toBe(false);
    expect(() => JSON.parse(line)).toThrow();
    // Every JSON log line is free of it.
    const logLines = lines.filter((l) => l.startsWith('{'));
    expect(logLines.length).toBeGreaterThan(0);
    for (const l of logLines) expect(l).not.toContain(token);
  });

  it('that token signs in as a librarian over HTTP, and never reaches the request log', async () => {
    const [token] = generatedTokens(server.stdout());
    const headers = { Authorization: `Bearer ${token}` };
    const root = await json<RootDocument>(await fetch(server.url, { headers }));
    const me = linkOf(root, 'me');
    expect(me).toBeDefined();
    expect(root.links.map((l: { rel: string }) => l.rel)).toContain('users');
    expect(await json<UserDocument>(await fetch(new URL(me.href, server.url), { headers }))).toMatchObject({
      name: 'Librarian',
      role: 'librarian',
    });
    const users = await fetch(new URL('/users', server.url), { headers });
    expect(users.status).toBe(200);
    const created = await fetch(new URL('/authors', server.url), {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Firststart Tokenbearer' }),
    });
    expect(created.status).toBe(201);
    // A wrong token is refused over the socket too.
    const refused = await fetch(new URL('/users', server.url), { headers: { Authorization: 'Bearer nope-nope' } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="catalogue"');
    // The requests were logged, the token was not.
    await waitForOutput(server, '"status":401');
    expect(server.output()).toContain('"path":"/users"');
    expect(server.output()).toContain('"status":401');
    expect(generatedTokens(server.output())).toEqual([token]);
  });

  it('stops gracefully on SIGTERM: exit code 0, after saying so', async () => {
    server.process.kill('SIGTERM');
    const [code] = await once(server.process, 'exit');
    expect(code).toBe(0);
    expect(server.output()).toContain('"message":"stopped"');
  });
});

describe('bad configuration', () => {
  it('stops at start-up with a message naming the variable', async () => {
    const { code, stderr } = await runScript('src/server.ts', [], { PORT: 'eighty', CATALOGUE_DATA_DIR: 'memory://' });
    expect(code).toBe(1);
    expect(stderr).toContain('PORT must be a whole number');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a port already in use', () => {
  it('stops at start-up with a message naming the port, without a stack', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const { code, stderr } = await runScript('src/server.ts', [], {
        DATABASE_URL: '',
        CATALOGUE_DATA_DIR: 'memory://',
        PORT: String(port),
        HOST: '127.0.0.1',
      });
      expect(code).toBe(1);
      expect(stderr).toContain(`catalogue could not start: port ${port} on 127.0.0.1 is in use`);
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
  }, 60_000);
});

/**
 * A database that outlives one process: a PGlite directory, or a fresh database on the server under test.
 * No sample catalogue (faster starts) and no CATALOGUE_ADMIN_TOKEN unless a test sets one.
 */
async function persistentDatabase(): Promise<FreshDatabase> {
  const database = await freshDatabase({ persistent: true, label: 'server' });
  return { ...database, env: { ...database.env, CATALOGUE_SEED: 'none', CATALOGUE_ADMIN_TOKEN: '' } };
}

/** Runs the app in-process on that database (no other process may hold a PGlite directory meanwhile). */
async function withApp<T>(target: DatabaseTarget, use: (app: ReturnType<typeof createApp>) => Promise<T>): Promise<T> {
  const database = await openDatabase(target);
  try {
    return await use(createApp({ database }));
  } finally {
    await database.close();
  }
}

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

describe('the first start on a database that persists', () => {
  const adminToken = `admin-${randomBytes(16).toString('hex')}`;
  let database: FreshDatabase;
  let firstToken: string;

  beforeAll(async () => {
    database = await persistentDatabase();
  });
  afterAll(() => database.drop());

  it('creates the librarian "Librarian" and prints their token', async () => {
    const server = await startServer({ database });
    try {
      const printed = generatedTokens(server.stdout());
      expect(printed).toHaveLength(1);
      firstToken = printed[0] as string;
      const users = await fetch(new URL('/users', server.url), bearer(firstToken));
      expect(users.status).toBe(200);
      expect(
        (await json<CollectionDocument<UserDocument>>(users)).map((u: { name: string; role: string }) => [
          u.name,
          u.role,
        ]),
      ).toEqual([['Librarian', 'librarian']]);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('prints nothing on the next start; CATALOGUE_ADMIN_TOKEN then signs in an Administrator', async () => {
    const server = await startServer({ database, env: { CATALOGUE_ADMIN_TOKEN: adminToken } });
    try {
      expect(generatedTokens(server.output())).toEqual([]);
      expect(server.output()).not.toContain(adminToken);
      const root = await json<RootDocument>(await fetch(server.url, bearer(adminToken)));
      const me = linkOf(root, 'me');
      expect(await json<UserDocument>(await fetch(new URL(me.href, server.url), bearer(adminToken)))).toMatchObject({
        name: 'Administrator',
        role: 'librarian',
      });
      // The token printed on the first start still works.
      expect((await fetch(new URL('/users', server.url), bearer(firstToken))).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('creates the Administrator only once, however often it starts with the token', async () => {
    const server = await startServer({ database, env: { CATALOGUE_ADMIN_TOKEN: adminToken } });
    try {
      expect(generatedTokens(server.output())).toEqual([]);
      const users = await json<CollectionDocument<UserDocument>>(
        await fetch(new URL('/users', server.url), bearer(adminToken)),
      );
      expect(users.map((u: { name: string; role: string }) => [u.name, u.role])).toEqual([
        ['Librarian', 'librarian'],
        ['Administrator', 'librarian'],
      ]);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

/** Runs the operator CLI to its end. */
const runCli = (args: string[], env: Record<string, string>) => runScript('src/cli.ts', args, env);

describe('the operator CLI (src/cli.ts)', () => {
  let database: FreshDatabase;
  let librarianToken: string;
  let memberId: number;
  let memberToken: string;
  let memberTokenId: number;

  beforeAll(async () => {
    database = await persistentDatabase();
  });
  afterAll(() => database.drop());

  it('users add --name NAME --role member: prints the user and a token that signs them in', async () => {
    const run = await runCli(['users', 'add', '--name', 'Clive Commandline', '--role', 'member'], database.env);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    const at = lines.findIndex((l) => l.startsWith('user '));
    const user = /^user (\d+) .*Clive Commandline$/.exec(lines[at] ?? '');
    expect(user, run.stdout).not.toBeNull();
    const token = /^token (cat_[A-Za-z0-9_-]{43})$/.exec(lines[at + 1] ?? '');
    expect(token, run.stdout).not.toBeNull();
    memberId = Number(user?.[1]);
    memberToken = token?.[1] as string;
    // On a fresh database the CLI also made the first librarian, and printed their token.
    const others = generatedTokens(run.stdout).filter((t) => t !== memberToken);
    expect(others).toHaveLength(1);
    librarianToken = others[0] as string;

    await withApp(database.target, async (app) => {
      const me = await app.request(`/users/${memberId}`, bearer(memberToken));
      expect(me.status).toBe(200);
      expect(await json<UserDocument>(me)).toMatchObject({ id: memberId, name: 'Clive Commandline', role: 'member' });
      expect((await app.request('/users', bearer(memberToken))).status).toBe(403);
      const tokens = await json<PageDoc<TokenDocument>>(
        await app.request(`/users/${memberId}/tokens`, bearer(memberToken)),
      );
      expect(tokens.data).toHaveLength(1);
      memberTokenId = present(tokens.data[0], 'the member\u2019s token').id;
      const users = await json<CollectionDocument<UserDocument>>(await app.request('/users', bearer(librarianToken)));
      expect(users.map((u: { name: string; role: string }) => [u.name, u.role])).toEqual([
        ['Librarian', 'librarian'],
        ['Clive Commandline', 'member'],
      ]);
    });
  }, 120_000);

  it('tokens revoke --id N: the token is refused from then on; revoking it again fails', async () => {
    const run = await runCli(['tokens', 'revoke', '--id', String(memberTokenId)], database.env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`revoked token ${memberTokenId}`);
    expect(generatedTokens(run.stdout)).toEqual([]);

    await withApp(database.target, async (app) => {
      const refused = await app.request(`/users/${memberId}`, bearer(memberToken));
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="catalogue"');
      expect((await app.request('/users', bearer(librarianToken))).status).toBe(200);
    });

    const again = await runCli(['tokens', 'revoke', '--id', String(memberTokenId)], database.env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`no token ${memberTokenId}`);
  }, 120_000);

  it('refuses an unknown role with a one-line message naming it (exit 2), adding nobody', async () => {
    const run = await runCli(['users', 'add', '--name', 'Clara Nobody', '--role', 'boss'], database.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "catalogue: option '--role <role>' argument 'boss' is invalid. Allowed choices are librarian, member.\n",
    );
    expect(generatedTokens(run.stdout)).toEqual([]);
    await withApp(database.target, async (app) => {
      const users = await json<CollectionDocument<UserDocument>>(await app.request('/users', bearer(librarianToken)));
      expect(users.map((u: { name: string }) => u.name)).toEqual(['Librarian', 'Clive Commandline']);
    });
  }, 120_000);
});
