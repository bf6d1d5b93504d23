/**
 * The service as an operator runs it: `node --import tsx src/server.ts` as its own process, configured by
 * environment, logging one line per request, and stopping cleanly on SIGTERM. The first start prints a
 * librarian's token once; the operator CLI (`src/cli.ts`) adds users with tokens and revokes tokens.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import type { DatabaseTarget } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { json } from './support/catalogue.js';

interface RunningServer {
  process: ChildProcess;
  url: string;
  /** Everything the process wrote, stdout and stderr interleaved. */
  output: () => string;
  /** What it wrote on stdout alone. */
  stdout: () => string;
}

/** A token the service generates: `cat_` and 43 characters of base64url. */
const GENERATED_TOKEN = /cat_[A-Za-z0-9_-]{43}/g;

/** Starts the server on a free port and waits for its "listening" line. */
async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let stdout = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const check = () => {
      const match = /"message":"listening","url":"([^"]+)"/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', () => reject(new Error(`server exited:\n${output}`)));
  });
  return { process: child, url, output: () => output, stdout: () => stdout };
}

/** Stops a server with SIGTERM and waits for it to exit. */
async function stopServer(server: RunningServer): Promise<void> {
  if (server.process.exitCode !== null) return;
  const exited = once(server.process, 'exit');
  server.process.kill('SIGTERM');
  await exited;
}

/** Waits until the server has written `text` (its output reaches this process asynchronously). */
async function waitForOutput(server: RunningServer, text: string): Promise<void> {
  for (let waited = 0; !server.output().includes(text) && waited < 10_000; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The generated tokens in a text. */
const generatedTokens = (text: string) => [...text.matchAll(GENERATED_TOKEN)].map((m) => m[0]);

/** The database the server process uses: in memory, or a fresh one on the PostgreSQL server under test. */
async function serverDatabaseEnv(): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  const serverUrl = process.env.DATABASE_URL;
  // No CATALOGUE_ADMIN_TOKEN: the first start makes its own librarian token.
  if (!serverUrl) return { env: { CATALOGUE_DATA_DIR: 'memory://', CATALOGUE_ADMIN_TOKEN: '' }, drop: async () => {} };
  const name = `catalogue_server_${randomBytes(4).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.href, CATALOGUE_ADMIN_TOKEN: '' },
    drop: async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

describe('the server process', () => {
  let server: RunningServer;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await serverDatabaseEnv();
    drop = database.drop;
    server = await startServer(database.env);
  });
  afterAll(async () => {
    if (server.process.exitCode === null) server.process.kill('SIGKILL');
    await drop();
  });

  it('serves the root with links and controls, over a real socket', async () => {
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    const root = await json(response);
    expect(root.links.map((l: { rel: string }) => l.rel)).toEqual([
      'self',
      'books',
      'authors',
      'search',
      'profile',
      'service-desc',
      'mcp',
    ]);
    expect(Object.keys(root.controls)).toEqual(['login', 'search']);
  });

  it('loads the sample catalogue on first start', async () => {
    const page = await json(await fetch(new URL('/books?per_page=1', server.url)));
    expect(page.meta.total_items).toBeGreaterThanOrEqual(300);
    const authors = await json(await fetch(new URL('/authors?per_page=1', server.url)));
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
    const root = await json(await fetch(server.url, { headers }));
    const me = root.links.find((l: { rel: string }) => l.rel === 'me');
    expect(me).toBeDefined();
    expect(root.links.map((l: { rel: string }) => l.rel)).toContain('users');
    expect(await json(await fetch(new URL(me.href, server.url), { headers }))).toMatchObject({
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
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, PORT: 'eighty', CATALOGUE_DATA_DIR: 'memory://' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const [code] = await once(child, 'exit');
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
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
        env: {
          ...process.env,
          DATABASE_URL: '',
          CATALOGUE_DATA_DIR: 'memory://',
          PORT: String(port),
          HOST: '127.0.0.1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk) => {
        stderr += chunk;
      });
      const [code] = await once(child, 'exit');
      expect(code).toBe(1);
      expect(stderr).toContain(`catalogue could not start: port ${port} on 127.0.0.1 is in use`);
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
  }, 60_000);
});

/** A database that outlives one process: a PGlite directory, or a fresh database on the server under test. */
async function persistentDatabase(): Promise<{
  env: Record<string, string>;
  target: DatabaseTarget;
  drop: () => Promise<void>;
}> {
  // No sample catalogue (faster starts) and no CATALOGUE_ADMIN_TOKEN unless a test sets one.
  const common = { CATALOGUE_SEED: 'none', CATALOGUE_ADMIN_TOKEN: '' };
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const dir = await mkdtemp(join(tmpdir(), 'catalogue-server-test-'));
    return {
      env: { ...common, DATABASE_URL: '', CATALOGUE_DATA_DIR: dir },
      target: { kind: 'pglite', dataDir: dir },
      drop: () => rm(dir, { recursive: true, force: true }),
    };
  }
  const { env, drop } = await serverDatabaseEnv();
  return { env: { ...common, ...env }, target: { kind: 'postgres', url: env.DATABASE_URL as string }, drop };
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
  let database: Awaited<ReturnType<typeof persistentDatabase>>;
  let firstToken: string;

  beforeAll(async () => {
    database = await persistentDatabase();
  });
  afterAll(() => database.drop());

  it('creates the librarian "Librarian" and prints their token', async () => {
    const server = await startServer(database.env);
    try {
      const printed = generatedTokens(server.stdout());
      expect(printed).toHaveLength(1);
      firstToken = printed[0] as string;
      const users = await fetch(new URL('/users', server.url), bearer(firstToken));
      expect(users.status).toBe(200);
      expect((await json(users)).map((u: { name: string; role: string }) => [u.name, u.role])).toEqual([
        ['Librarian', 'librarian'],
      ]);
    } finally {
      await stopServer(server);
    }
  }, 120_000);

  it('prints nothing on the next start; CATALOGUE_ADMIN_TOKEN then signs in an Administrator', async () => {
    const server = await startServer({ ...database.env, CATALOGUE_ADMIN_TOKEN: adminToken });
    try {
      expect(generatedTokens(server.output())).toEqual([]);
      expect(server.output()).not.toContain(adminToken);
      const root = await json(await fetch(server.url, bearer(adminToken)));
      const me = root.links.find((l: { rel: string }) => l.rel === 'me');
      expect(await json(await fetch(new URL(me.href, server.url), bearer(adminToken)))).toMatchObject({
        name: 'Administrator',
        role: 'librarian',
      });
      // The token printed on the first start still works.
      expect((await fetch(new URL('/users', server.url), bearer(firstToken))).status).toBe(200);
    } finally {
      await stopServer(server);
    }
  }, 120_000);

  it('creates the Administrator only once, however often it starts with the token', async () => {
    const server = await startServer({ ...database.env, CATALOGUE_ADMIN_TOKEN: adminToken });
    try {
      expect(generatedTokens(server.output())).toEqual([]);
      const users = await json(await fetch(new URL('/users', server.url), bearer(adminToken)));
      expect(users.map((u: { name: string; role: string }) => [u.name, u.role])).toEqual([
        ['Librarian', 'librarian'],
        ['Administrator', 'librarian'],
      ]);
    } finally {
      await stopServer(server);
    }
  }, 120_000);
});

/** Runs the operator CLI to its end. */
async function runCli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const [code] = await once(child, 'close');
  return { code: code as number | null, stdout, stderr };
}

describe('the operator CLI (src/cli.ts)', () => {
  let database: Awaited<ReturnType<typeof persistentDatabase>>;
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
      expect(await json(me)).toMatchObject({ id: memberId, name: 'Clive Commandline', role: 'member' });
      expect((await app.request('/users', bearer(memberToken))).status).toBe(403);
      const tokens = await json(await app.request(`/users/${memberId}/tokens`, bearer(memberToken)));
      expect(tokens.data).toHaveLength(1);
      memberTokenId = tokens.data[0].id;
      const users = await json(await app.request('/users', bearer(librarianToken)));
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

  it('refuses an unknown role with a usage message (exit 2), adding nobody', async () => {
    const run = await runCli(['users', 'add', '--name', 'Clara Nobody', '--role', 'boss'], database.env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--role must be member or librarian');
    expect(generatedTokens(run.stdout)).toEqual([]);
    await withApp(database.target, async (app) => {
      const users = await json(await app.request('/users', bearer(librarianToken)));
      expect(users.map((u: { name: string }) => u.name)).toEqual(['Librarian', 'Clive Commandline']);
    });
  }, 120_000);
});
