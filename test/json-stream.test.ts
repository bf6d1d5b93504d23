/**
 * The JSON format writes a streamed member's text directly, without building the member object: it must
 * be, byte for byte, what stringifying the member writes, whatever the resource holds.
 */
import { describe, expect, it } from 'vitest';
import { jsonFormat } from '../src/formats/json.js';
import type { Resource } from '../src/hypermedia/model.js';

async function streamed(items: Resource[][]): Promise<string> {
  let text = '';
  for await (const chunk of jsonFormat.stream({ kind: 'book-list', links: [], controls: [], items: batches(items) })) {
    text += chunk;
  }
  return text;
}

async function* batches(items: Resource[][]) {
  yield* items;
}

const plain: Resource = {
  kind: 'book',
  state: { id: 7, title: 'Quotes " and \\ and \u2028 and é', due_at: null, skipped: undefined },
  links: [
    { rel: 'self', href: '/books/7' },
    { rel: 'collection', href: '/books?page=1&per_page=20' },
  ],
  controls: [],
};
const titled: Resource = {
  kind: 'author',
  state: {},
  links: [
    { rel: 'books', href: '/authors/1/books', title: 'Books by "Ann"' },
    { rel: 'search', href: '/books{?query}', templated: true },
    { rel: 'self', href: '/authors/1', title: '' },
  ],
  controls: [{ name: 'delete', href: '/authors/1', method: 'DELETE', title: 'Delete', fields: [] }],
};
const clashing: Resource = {
  kind: 'book',
  state: { links: 'a state field so named', id: 1 },
  links: [{ rel: 'self', href: '/books/1' }],
  controls: [],
};
const withoutLinks: Resource = { kind: 'book', state: { id: 2 }, links: [], controls: [] };

describe('the JSON stream', () => {
  it('writes each member as JSON.stringify writes it, across batches', async () => {
    const expected = [
      { id: 7, title: plain.state.title, due_at: null, links: plain.links },
      {
        links: [
          { rel: 'books', href: '/authors/1/books', title: 'Books by "Ann"' },
          { rel: 'search', href: '/books{?query}', templated: true },
          { rel: 'self', href: '/authors/1' },
        ],
        controls: { delete: { href: '/authors/1', method: 'DELETE', title: 'Delete', fields: [] } },
      },
      { links: [{ rel: 'self', href: '/books/1' }], id: 1 },
      { id: 2, links: [] },
    ];
    expect(await streamed([[plain, titled], [clashing], [], [withoutLinks]])).toBe(JSON.stringify(expected));
    expect(await streamed([])).toBe('[]');
  });
});
