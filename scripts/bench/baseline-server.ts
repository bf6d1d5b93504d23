/**
 * @module The benchmark's baseline: the least a server can do to answer the catalogue's hottest requests,
 * on bare Hono and postgres.js; with BASELINE_GATHER=1, gathering its book reads as the catalogue does.
 */

/*
 * No middleware, no rendering:
 * - `GET /books/:id` runs the catalogue's point select of a book (`findBookQuery`, prepared by postgres.js),
 *   one statement per request, and answers the row as JSON;
 * - `GET /` answers a fixed JSON object, read at start from BASELINE_ROOT_FILE (the benchmark saves the
 *   catalogue's root document there, so both serialise an object of the same size).
 * With BASELINE_GATHER=1 it gathers the reads of a turn into one statement with the catalogue's loader
 * (`src/db/row-loader.ts`, `findBooksQuery`): a second baseline, whose database work per request is the
 * catalogue's, so that the ratio to it is what the catalogue's own work per request costs.
 *
 *   DATABASE_URL=postgres://… PORT=3400 BASELINE_ROOT_FILE=root.json node --import tsx scripts/bench/baseline-server.ts
 */
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { drizzle } from 'drizzle-orm/postgres-js';
import { Hono } from 'hono';
import postgres from 'postgres';
import type { Db } from '../../src/db/client.js';
import { findBookQuery, findBooksQuery } from '../../src/db/queries/books.js';
import { rowLoader } from '../../src/db/row-loader.js';
import * as schema from '../../src/db/schema/index.js';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL must name the database the catalogue serves');
const client = postgres(url, { max: 10, onnotice: () => {} });
const db = drizzle(client, { schema }) as unknown as Db;
const statement = findBookQuery(db).toSQL().sql;
const many = findBooksQuery(db).toSQL().sql;
type Row = Record<string, unknown> & { id: number };
const gathered =
  process.env.BASELINE_GATHER === '1'
    ? rowLoader<number, Row>(
        (ids) => client.unsafe<Row[]>(many, [ids], { prepare: true }),
        (row) => row.id,
      )
    : undefined;
const root: unknown = JSON.parse(readFileSync(process.env.BASELINE_ROOT_FILE ?? '/dev/null', 'utf8') || '{}');

const app = new Hono();
app.get('/', (c) => c.json(root as object));
app.get('/books/:id', async (c) => {
  const id = Number(c.req.param('id'));
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) return c.json({ error: { code: 404 } }, 404);
  const [row] = gathered ? [await gathered.load(id)] : await client.unsafe(statement, [id], { prepare: true });
  return row ? c.json(row) : c.json({ error: { code: 404, message: `book ${id} not found` } }, 404);
});

const server = serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3400), hostname: '127.0.0.1' });
process.on('SIGTERM', () => {
  server.close();
  void client.end({ timeout: 1 }).then(() => process.exit(0));
});
