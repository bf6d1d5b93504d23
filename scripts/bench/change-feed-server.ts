/**
 * @module The catalogue served as `src/server.ts` serves it, with the change streams' page writer chosen
 * by CHANGE_FEED_WRITER: `page` (the catalogue's own, one text per page) or `per-event` (Hono's `writeSSE`
 * once per event, the standard way). The benchmark runs both from this one entry, so that they differ in
 * the writer alone.
 *
 *   DATABASE_URL=postgres://… PORT=3500 CHANGE_FEED_WRITER=per-event node --import tsx scripts/bench/change-feed-server.ts
 */
import { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';
import { memberText } from '../../src/formats/json.js';
import { ChangeStreams, changeStreamOptions } from '../../src/http/change-streams.js';
import { boundConnections, connectionOptions } from '../../src/http/connections.js';
import type { EventPageWriter } from '../../src/http/routes/changes.js';

/** Each event its own message: `writeSSE` writes, and awaits, every one. */
const writeEachEvent: EventPageWriter = async (sse, events) => {
  for (const event of events) {
    await sse.writeSSE({ id: event.id, event: String(event.resource.state.type), data: memberText(event.resource) });
  }
};

const writer = process.env.CHANGE_FEED_WRITER ?? 'page';
if (writer !== 'page' && writer !== 'per-event') {
  throw new Error(`CHANGE_FEED_WRITER must be "page" or "per-event", got "${writer}"`);
}
const config = loadConfig();
const database = await openDatabase(config.database);
const changeStreams = new ChangeStreams(database, changeStreamOptions(config.changes));
const app = createApp({
  database,
  publicUrl: config.publicUrl,
  access: config.access,
  rateLimits: config.rateLimits,
  changeStreams,
  changes: config.changes,
  oai: config.oai,
  importMaxBytes: config.importMaxBytes,
  ...(writer === 'per-event' && { writeEventPage: writeEachEvent }),
});
const server = serve({
  fetch: app.fetch,
  port: config.port,
  hostname: config.host,
  serverOptions: connectionOptions(config.connections),
});
if (server instanceof Server) boundConnections(server, config.connections);

process.on('SIGTERM', () => {
  changeStreams.close();
  if ('closeAllConnections' in server) server.closeAllConnections();
  server.close();
  void database.close().then(() => process.exit(0));
});
