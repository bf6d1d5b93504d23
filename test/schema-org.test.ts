/**
 * schema.org, on PGlite and PostgreSQL: a book answers `application/ld+json` as a `Book` and an author as a
 * `Person`, and their HTML pages embed the same document, safely even when a title holds `</script>`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAuthor, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import type { BookDocument, JsonLdDocument } from './support/documents.js';

const LD = 'application/ld+json';

/** The JSON-LD a page embeds: the text of its one `<script type="application/ld+json">`. */
function embedded(html: string): unknown {
  const scripts = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)];
  expect(scripts).toHaveLength(1);
  return JSON.parse(scripts[0]?.[1] as string);
}

describe('schema.org', () => {
  let t: TestCatalogue;
  let author: number;
  let book: number;

  const get = (path: string, accept: string) => t.anonymous.request(path, { headers: { Accept: accept } });

  beforeAll(async () => {
    t = await openTestCatalogue();
    author = await addAuthor(t, 'Ursula K. Le Guin');
    const created = await t.send('POST', '/books', {
      title: 'The Dispossessed',
      publication_year: 1974,
      author_id: author,
      isbn: '0-06-012563-2',
      language: 'ger',
      subjects: ['Anarchism', 'Science fiction'],
      publisher: 'Harper & Row',
    });
    book = (await json<BookDocument>(created)).id;
  });
  afterAll(() => t?.close());

  it('answers a book as a schema.org Book in JSON-LD', async () => {
    const response = await get(`/books/${book}`, LD);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/ld+json; charset=utf-8');
    expect(await json<JsonLdDocument>(response)).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Book',
      url: `/books/${book}`,
      name: 'The Dispossessed',
      author: { '@type': 'Person', name: 'Ursula K. Le Guin', url: `/authors/${author}` },
      datePublished: '1974',
      isbn: '9780060125639',
      // BCP 47: ISO 639-1's code where the language has one.
      inLanguage: 'de',
      about: [
        { '@type': 'Thing', name: 'Anarchism' },
        { '@type': 'Thing', name: 'Science fiction' },
      ],
      publisher: { '@type': 'Organization', name: 'Harper & Row' },
    });
  });

  it("embeds the same document in the book's page, and a Person in the author's", async () => {
    for (const path of [`/books/${book}`, `/authors/${author}`]) {
      const page = await get(path, 'text/html');
      expect(page.status).toBe(200);
      const document = await json<JsonLdDocument>(await get(path, LD));
      expect(embedded(await page.text()), path).toEqual(document);
    }
    expect(await json<JsonLdDocument>(await get(`/authors/${author}`, LD))).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Person',
      url: `/authors/${author}`,
      name: 'Ursula K. Le Guin',
    });
  });

  it('keeps a title holding </script> inside the script, and the same once parsed', async () => {
    const title = 'Endings </script><script>alert(1)</script> <!-- & more';
    const created = await t.send('POST', '/books', {
      title,
      publication_year: 2001,
      author_id: author,
      language: 'grc',
    });
    const id = (await json<BookDocument>(created)).id;
    const html = await (await get(`/books/${id}`, 'text/html')).text();
    expect(html).not.toContain('<script>alert(1)');
    const document = embedded(html) as { name: string; inLanguage: string };
    expect(document.name).toBe(title);
    // A language without a two-letter code keeps its three letters, as BCP 47 does.
    expect(document.inLanguage).toBe('grc');
    expect(document).toEqual(await json<JsonLdDocument>(await get(`/books/${id}`, LD)));
  });

  it('answers other resources in the next format Accept likes, else 406', async () => {
    expect((await get('/books', LD)).status).toBe(406);
    expect((await get('/', LD)).status).toBe(406);
    const page = await get('/books?page=1&per_page=2', `${LD}, application/hal+json;q=0.9`);
    expect(page.headers.get('content-type')).toBe('application/hal+json; charset=utf-8');
  });
});
