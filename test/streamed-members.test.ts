/**
 * A whole listing streamed as JSON has its members' state written by the database (`row_to_json`), a page
 * by `JSON.stringify`: the two hold the same members byte for byte, whatever the books hold (quotes,
 * backslashes, control characters, line separators, characters beyond the BMP, nulls, empty and awkward
 * subject lists, negative years, a due date), in any order and scope the listing takes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { books } from '../src/db/schema/index.js';
import { addAuthor, addBook, json, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';
import { borrowed } from './support/circulation.js';
import type { PageDoc } from './support/documents.js';

const awkwardTitles = [
  'Quotes " and \\ a backslash',
  'Control \u0001\b\t\n\f\r\u001f characters',
  'DEL \u007f and C1 \u0080\u009f',
  'Separators \u2028 and \u2029',
  'Beyond the BMP \u{1F4DA}, Zoë, 漢字',
  '</script> & <b> / \\/',
  'x'.repeat(500),
];

describe('the JSON stream, its members written by the database', () => {
  let t: TestCatalogue;
  let authorId: number;

  beforeAll(async () => {
    t = await openTestCatalogue();
    authorId = await addAuthor(t, 'Ann "Quoted" \\ Author');
    await t.database.db.insert(books).values(
      awkwardTitles.map((title, n) => ({
        title,
        publicationYear: [-500, 0, 2024][n % 3] as number,
        authorId,
        isbn: n % 2 === 0 ? null : `978000752549${n}`,
        language: n % 3 === 0 ? null : 'eng',
        subjects: [[], ['A "quoted", heading', '{braces}', 'back\\slash', 'NULL', '\u0001 \u2028'], ['Zoë']][
          n % 3
        ] as string[],
        publisher: n % 2 === 0 ? `Quill "&" Ink\n${n}` : null,
      })),
    );
    // A book on loan: not available, with the date its copy is due back.
    await borrowed(t, await addBook(t, 'On loan', 1999, authorId));
  });
  afterAll(() => t.close());

  /** The members the pages of a listing hold, following `next` from its first page. */
  async function pagedMembers(path: string): Promise<string[]> {
    const members: string[] = [];
    let next: string | undefined = `${path}${path.includes('?') ? '&' : '?'}per_page=3`;
    while (next) {
      const page: PageDoc = await json<PageDoc>(await t.request(next));
      members.push(...page.data.map((item) => JSON.stringify(item)));
      next = page.links.find((l) => l.rel === 'next')?.href;
    }
    return members;
  }

  it('holds, byte for byte, what the pages hold, in every order and scope', async () => {
    const listings = [
      '/books',
      '/books?sort=-title',
      '/books?sort=publication_year,-id',
      '/books?filter=available:true',
      '/books?query=quotes',
      `/authors/${authorId}/books?sort=-copies_available`,
      '/books?fields=title,subjects',
    ];
    for (const listing of listings) {
      const members = await pagedMembers(listing);
      const response = await t.request(listing);
      expect(response.status).toBe(200);
      expect(await response.text(), listing).toBe(`[${members.join(',')}]`);
    }
    const all = await pagedMembers('/books');
    expect(all).toHaveLength(awkwardTitles.length + 1);
    expect(
      all.some((member) => /"available":false,"due_at":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/.test(member)),
    ).toBe(true);
  });
});
