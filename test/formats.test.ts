/**
 * The extension point for media types: a format registered beside JSON is offered by every route,
 * with negotiation, headers and streaming, without any route or renderer knowing about it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import type { Format } from '../src/formats/format.js';
import { formats, negotiate } from '../src/formats/registry.js';
import { addAuthor, addBook, LIBRARIAN_TOKEN, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

/** A deliberately tiny format: one line per link and control, then the state as key=value. */
const plainFormat: Format = {
  contentType: 'text/plain; charset=utf-8',
  mediaTypes: ['text/plain'],
  resource: (r) =>
    [
      ...r.links.map((l) => `link ${l.rel} ${l.href}`),
      ...r.controls.map((c) => `control ${c.name} ${c.method} ${c.href}`),
      ...Object.entries(r.state).map(([k, v]) => `${k}=${JSON.stringify(v)}`),
      ...(r.items ?? []).map((item) => `item ${item.links.find((l) => l.rel === 'self')?.href}`),
    ].join('\n'),
  async *stream(s) {
    for await (const batch of s.items) {
      for (const item of batch) yield `item ${item.links.find((l) => l.rel === 'self')?.href}\n`;
    }
  },
};

let t: TestCatalogue;
let app: ReturnType<typeof createApp>;
let bookId: number;

beforeAll(async () => {
  t = await openTestCatalogue();
  app = createApp({ database: t.database, formats: [...formats, plainFormat] });
  const author = await addAuthor(t, 'Plain Author');
  bookId = await addBook(t, 'Plain Book', 1999, author);
});
afterAll(() => t.close());

describe('a registered format', () => {
  it('renders a single resource with the links and controls the renderer decided', async () => {
    const response = await app.request(`/books/${bookId}`, {
      headers: { Accept: 'text/plain', Authorization: `Bearer ${LIBRARIAN_TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('etag')).toBeTruthy();
    const text = await response.text();
    expect(text).toContain(`link self /books/${bookId}`);
    expect(text.split('\n').filter((line) => line.startsWith('control '))).toEqual([
      `control borrow POST /books/${bookId}/borrow`,
      `control update PUT /books/${bookId}`,
      `control edit PATCH /books/${bookId}`,
      `control delete DELETE /books/${bookId}`,
    ]);
    expect(text).toContain('title="Plain Book"');
    expect(text).toContain('available=true');
    expect(text).toContain('due_at=null');
  });

  it('renders the controls for the caller: none for an anonymous one', async () => {
    const response = await app.request(`/books/${bookId}`, { headers: { Accept: 'text/plain' } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain(`link self /books/${bookId}`);
    expect(text).not.toContain('control ');
  });

  it('renders pages and streams bare collections', async () => {
    const page = await app.request('/books?page=1', { headers: { Accept: 'text/plain' } });
    expect(await page.text()).toContain(`item /books/${bookId}`);
    const stream = await app.request('/books', { headers: { Accept: 'text/plain' } });
    expect(await stream.text()).toBe(`item /books/${bookId}\n`);
  });

  it('is chosen by quality, and JSON stays the default', async () => {
    const accept = 'application/json;q=0.5, text/plain';
    expect(negotiate(accept, [...formats, plainFormat])).toBe(plainFormat);
    expect(negotiate(undefined, [...formats, plainFormat])?.mediaTypes).toEqual(['application/json']);
    expect(negotiate('*/*', [...formats, plainFormat])?.mediaTypes).toEqual(['application/json']);
  });

  it('is not offered where it is not registered: 406', async () => {
    const response = await t.request(`/books/${bookId}`, { headers: { Accept: 'text/plain' } });
    expect(response.status).toBe(406);
  });
});
