/**
 * How a write's answer reaches a browser: sent on to the resource (303, post/redirect/get), unless the
 * route says the answer is shown once (a new token's secret), which is an explicit option of `send`,
 * not something read back out of the headers a route happened to pass.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { htmlFormat } from '../src/formats/html/index.js';
import { deprecationsOf } from '../src/http/deprecation.js';
import type { AppEnv } from '../src/http/env.js';
import { send } from '../src/http/respond.js';
import type { Resource } from '../src/hypermedia/model.js';
import { Uris } from '../src/hypermedia/uris.js';
import { controls, rels } from '../src/hypermedia/vocabulary.js';

const created: Resource = { kind: 'book', state: { id: 7 }, links: [{ rel: 'self', href: '/books/7' }], controls: [] };

function appSending(options: Parameters<typeof send>[2]) {
  const app = new Hono<AppEnv>();
  app.post('/books', (c) => {
    c.set('format', htmlFormat);
    c.set('uris', new Uris());
    c.set('deprecations', deprecationsOf({ rels, controls }));
    return send(c, created, options);
  });
  return app;
}

describe('send, for a browser after a write', () => {
  it('sends it on to the resource (303), whatever caching headers the route passes', async () => {
    const response = await appSending({ status: 201, headers: { 'Cache-Control': 'no-store' } }).request('/books', {
      method: 'POST',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/books/7');
  });

  it('shows the answer itself when told it is shown once, and keeps it out of every cache', async () => {
    const response = await appSending({ status: 201, showOnce: true }).request('/books', { method: 'POST' });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
