/**
 * A title's exact key (`catalogue_exact_key`: its lexemes in the order of their positions, a `_` for each
 * stop word between two of them) is what the definition by positions (`catalogue_exact_key_by_positions`,
 * the function as it was before it became one expression) gives, for awkward titles and for thousands of
 * generated ones, in both configurations, stored in the books' column and in the authors'. A new book still
 * gets its first copy at the default branch, of the default item type, announced by `copy.added`.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { addAuthor, addBook, openTestCatalogue, type TestCatalogue } from './support/catalogue.js';

/** Stop words, punctuation, quotes, backslashes, hyphens, numbers, diacritics, romanisation marks, scripts. */
const AWKWARD = [
  'The cat in the hat',
  'The history of the decline and fall of the Roman empire',
  'a b c d e f g h the the the the i',
  'Of the the the the the cats',
  'the',
  'The The',
  '',
  '   ',
  ':',
  'foo-bar baz the qux',
  'co-operation in the e-mail age',
  "O'Brien's \\ back",
  "it's 'quoted' : x'y' 'z",
  '\\\\ \\ back\\slash',
  'Qurʼān and ʻAlī in Lʹvov',
  'Ærøskøbing, naïve résumé, straße, İstanbul',
  'Война и мир',
  '東京物語',
  'Ｆｕｌｌ ｗｉｄｔｈ ﬁne ﬀ',
  'x the x',
  'x <2> y <-> z',
  "http://example.org/a'b and me@example.org",
  '1984, 2nd ed., v2.0 -3 3.14',
  '«Les misérables» — “quoted” ‘single’',
];

const VOCABULARY = [
  ...'the a of and in to is it for on with as by at an or'.split(' '),
  ...'Cat hat rose name Roman empire war peace night day sea'.split(' '),
  ...['foo-bar', "O'Brien", "don't", '\\', "'", '"', '-', '--', '-3', '3.14', 'e-mail', 'me@example.org'],
  ...['Qurʼān', 'ʻAlī', 'naïve', 'Ærø', 'straße', 'Война', 'и', 'мир', '東京', 'ﬁ', '½', '…', '!', '(', ')'],
  ...['<->', '<2>', "'x'", 'x', '_', 'www.example.com', '/usr/lib', 'a.b.c', 'I', 's', 't', 'v2.0'],
];

/** Deterministic titles of 1 to 24 words from the vocabulary, joined by spaces, nothing or hyphens. */
function generatedTitles(count: number): string[] {
  let seed = 48;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const titles: string[] = [];
  for (let i = 0; i < count; i++) {
    let title = '';
    const words = 1 + next(24);
    for (let w = 0; w < words; w++) {
      if (w > 0) title += ['  ', ' ', ' ', ' ', '', '-'][next(6)];
      title += VOCABULARY[next(VOCABULARY.length)];
    }
    titles.push(title);
  }
  return titles;
}

let t: TestCatalogue;

beforeAll(async () => {
  t = await openTestCatalogue();
});

afterAll(async () => {
  await t?.close();
});

async function differences(config: string, texts: string[]): Promise<unknown[]> {
  return rowsOf(
    await t.database.db.execute(sql`
      select text, catalogue_exact_key(${config}::regconfig, text) as key,
        catalogue_exact_key_by_positions(${config}::regconfig, text) as by_positions
      from jsonb_array_elements_text(${JSON.stringify(texts)}::jsonb) as text
      where catalogue_exact_key(${config}::regconfig, text) is distinct from
        catalogue_exact_key_by_positions(${config}::regconfig, text)`),
  );
}

describe('catalogue_exact_key', () => {
  it('writes the lexemes in order, a _ for each stop word between two, nothing for none', async () => {
    const keys = rowsOf<{ key: string | null }>(
      await t.database.db.execute(sql`
        select catalogue_exact_key('catalogue_english', text) as key
        from jsonb_array_elements_text(${JSON.stringify(['The cat in the hat', 'The The', "O'Brien's \\ back", 'Война и мир'])}::jsonb)
          with ordinality as texts (text, n)
        order by n`),
    ).map((row) => row.key);
    expect(keys).toEqual(['cat _ _ hat', null, 'o brien _ back', 'война и мир']);
  });

  it('gives what the definition by positions gives, for awkward and generated titles, in both configurations', async () => {
    const texts = [...AWKWARD, ...generatedTitles(3000)];
    expect(await differences('catalogue_english', texts)).toEqual([]);
    expect(await differences('catalogue_simple', texts)).toEqual([]);
  });

  it('is null for a null text, as the strict definition was', async () => {
    const [row] = rowsOf<{ key: string | null }>(
      await t.database.db.execute(sql`select catalogue_exact_key('catalogue_english', null::text) as key`),
    );
    expect(row?.key).toBeNull();
  });

  it('is what the books and authors store, and a new book still has its first copy and its events', async () => {
    const author = await addAuthor(t, 'Ólafur Þórðarson the Younger');
    const titles = AWKWARD.filter((title) => title.trim() !== '' && title !== ':');
    for (const [i, title] of titles.entries()) await addBook(t, title, 1900 + i, author);
    const stored = rowsOf(
      await t.database.db.execute(sql`
        select title as text from books
        where exact_key is distinct from catalogue_exact_key_by_positions('catalogue_english', title)
        union all
        select name from authors
        where exact_key is distinct from catalogue_exact_key_by_positions('catalogue_simple', name)`),
    );
    expect(stored).toEqual([]);
    const [first] = rowsOf<{ books: number; copies: number; defaults: number; added: number }>(
      await t.database.db.execute(sql`
        select (select count(*)::integer from books) as books, count(*)::integer as copies,
          count(*) filter (where c.branch_id = default_branch() and c.location_branch_id = default_branch()
            and c.item_type_id = default_item_type())::integer as defaults,
          (select count(*)::integer from changes e where e.type = 'copy.added'
            and e.resource_id in (select id from copies)) as added
        from copies c`),
    );
    expect(first).toEqual({
      books: titles.length,
      copies: titles.length,
      defaults: titles.length,
      added: titles.length,
    });
  });
});
