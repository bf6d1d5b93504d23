/** How the MCP tools read the app's answers: a whole collection cut short, and a 204's `Link` header. */
import { describe, expect, it } from 'vitest';
import { parseLinkHeader, wholeItems } from '../src/mcp/app-client.js';
import { documentOf, MAX_ITEMS, textOf } from '../src/mcp/document.js';

describe('a whole collection longer than the tools read', () => {
  it('keeps its complete members, whatever their strings hold', () => {
    const members = [
      { id: 1, name: 'a, "quoted" [name]', links: [{ rel: 'self', href: '/authors/1' }] },
      { id: 2, name: 'back\\slash }, {', links: [{ rel: 'self', href: '/authors/2' }] },
    ];
    const text = JSON.stringify([...members, { id: 3, name: 'cut off' }]);
    const cut = text.slice(0, text.indexOf('cut off'));
    expect(JSON.parse(wholeItems(cut) as string)).toEqual(members);
    expect(wholeItems('[{"id":1,"na')).toBeUndefined();
    expect(wholeItems('{"id":1,')).toBeUndefined();
  });

  it('is shown as its first items, marked truncated', () => {
    const body = Array.from({ length: MAX_ITEMS + 5 }, (_, i) => ({
      id: i + 1,
      links: [{ rel: 'self', href: `/authors/${i + 1}` }],
    }));
    const document = documentOf({ status: 200, url: '/authors', headerLinks: [], body, truncated: false });
    expect(document.items).toHaveLength(MAX_ITEMS);
    expect(document.items?.[0]).toEqual({ href: '/authors/1', id: 1 });
    expect(document.truncated).toBe(true);
  });
});

describe('an answer without a body', () => {
  it('shows the links of its Link header (RFC 8288)', () => {
    expect(parseLinkHeader('</books?page=1&per_page=20>; rel="collection", </>; rel="home start"')).toEqual([
      { rel: 'collection', href: '/books?page=1&per_page=20' },
      { rel: 'home', href: '/' },
      { rel: 'start', href: '/' },
    ]);
    const headerLinks = parseLinkHeader('</books>; rel="collection"');
    expect(documentOf({ status: 204, url: '/books/1', headerLinks, body: undefined, truncated: false })).toEqual({
      status: 204,
      url: '/books/1',
      data: null,
      links: [{ rel: 'collection', href: '/books' }],
      controls: [],
    });
  });
});

describe('a control whose field offers labelled choices', () => {
  it('names each choice with its label, so an agent sends a value the listing takes', () => {
    const body = {
      data: [],
      links: [],
      controls: {
        search: {
          href: '/books',
          method: 'GET',
          fields: [
            {
              name: 'sort',
              type: 'string',
              required: false,
              title: 'Sort by',
              options: [
                { value: '', prompt: 'Relevance' },
                { value: '-publication_year', prompt: 'Newest first' },
              ],
            },
          ],
        },
      },
    };
    const text = textOf(documentOf({ status: 200, url: '/books', headerLinks: [], body, truncated: false }));
    expect(text).toContain('sort string, one of "" (Relevance), "-publication_year" (Newest first) ("Sort by")');
  });
});
