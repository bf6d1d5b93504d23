/**
 * Golden files: the root, a book, an author, a page of books and a loan, in every format (seed JSON, HAL,
 * HAL-FORMS, HTML), for an anonymous caller, a member and a librarian, compared byte for byte (after
 * timestamps are masked) with `test/golden/`. Run with UPDATE_GOLDEN=1 to rewrite them after a deliberate
 * change, and read the diff. A second test walks the same documents and checks that JSON, HAL-FORMS and
 * HTML name the same links and the same controls.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addAuthor,
  addBook,
  addUser,
  openTestCatalogue,
  type TestCatalogue,
  type TestClient,
} from './support/catalogue.js';
import { borrow } from './support/circulation.js';

const formats = {
  json: { accept: 'application/json', extension: 'json' },
  hal: { accept: 'application/hal+json', extension: 'hal.json' },
  'hal-forms': { accept: 'application/prs.hal-forms+json', extension: 'hal-forms.json' },
  html: { accept: 'text/html', extension: 'html' },
} as const;
type FormatName = keyof typeof formats;

const resources = {
  root: '/',
  book: '/books/1',
  author: '/authors/1',
  'books-page': '/books?page=1&per_page=2',
  loan: '/loans/1',
} as const;

let t: TestCatalogue;
let callers: Record<'anonymous' | 'member' | 'librarian', TestClient>;
/** The member's id: a restored embedded snapshot may number users with a gap, so it is masked. */
let memberId: number;

beforeAll(async () => {
  t = await openTestCatalogue();
  // A fresh database numbers everything from 1, so every href below is the same on every run.
  const author = await addAuthor(t, 'Golden Author');
  await addBook(t, 'Golden Book', 1999, author);
  await addBook(t, 'Golden Book on Loan', 2001, author);
  await addBook(t, 'Third Golden Book', 2003, author);
  const member = await addUser(t, 'Golden Member');
  memberId = member.id;
  const borrowed = await borrow(t.as(member.token), 2);
  expect(borrowed.headers.get('location')).toBe('/loans/1');
  callers = { anonymous: t.anonymous, member: t.as(member.token), librarian: t };
});
afterAll(() => t.close());

/** The body with what changes from run to run (times) masked, JSON pretty-printed for readable diffs. */
async function normalised(response: Response, format: FormatName): Promise<string> {
  const text = (await response.text())
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<timestamp>')
    // The HTML view shows an instant as date and time of day apart.
    .replace(/<span>\d{4}-\d\d-\d\d<\/span>/g, '<span><date></span>')
    .replace(/<span>T\d\d:\d\d:\d\d\.\d{3}Z<\/span>/g, '<span><time></span>')
    // A due date is shown as a day, which moves with the day the test runs.
    .replace(/(<time datetime="<timestamp>">)\d{4}-\d\d-\d\d(?=<\/time>)/g, '$1<date>')
    .replaceAll(`/users/${memberId}`, '/users/<member>')
    .replace(new RegExp(`("borrower_id":|data-field="borrower_id">)${memberId}\\b`, 'g'), '$1"<member>"');
  return format === 'html' ? `${text.replaceAll('><', '>\n<')}\n` : `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
}

const cases = Object.entries(resources).flatMap(([resource, path]) =>
  (['anonymous', 'member', 'librarian'] as const).flatMap((caller) =>
    (Object.keys(formats) as FormatName[]).map((format) => ({ resource, path, caller, format })),
  ),
);

describe('golden files', () => {
  it.each(cases)('$resource as $caller in $format', async ({ resource, path, caller, format }) => {
    const response = await callers[caller].request(path, { headers: { Accept: formats[format].accept } });
    const actual = `status ${response.status}\n${await normalised(response, format)}`;
    const file = new URL(`./golden/${resource}.${caller}.${formats[format].extension}`, import.meta.url);
    if (process.env.UPDATE_GOLDEN) await writeFile(file, actual);
    expect(existsSync(file), `missing golden file ${file.pathname}; run with UPDATE_GOLDEN=1`).toBe(true);
    expect(actual).toBe(await readFile(file, 'utf8'));
  });
});

/** The link rels (not self, not templated) and control names a document offers, per format. */
function namesInJson(doc: { links?: { rel: string; templated?: boolean }[]; controls?: Record<string, unknown> }) {
  return {
    rels: new Set((doc.links ?? []).filter((l) => l.rel !== 'self' && !l.templated).map((l) => l.rel)),
    controls: new Set(Object.keys(doc.controls ?? {})),
  };
}

function namesInHalForms(doc: { _links?: Record<string, { templated?: boolean }>; _templates?: object }) {
  return {
    rels: new Set(
      Object.entries(doc._links ?? {})
        .filter(([rel, link]) => rel !== 'self' && !(link as { templated?: boolean }).templated)
        .map(([rel]) => rel),
    ),
    controls: new Set(Object.keys(doc._templates ?? {}).filter((name) => name !== 'default')),
  };
}

/**
 * The page's own links (its nav bars, and a named field's link such as a book's author by name; not the
 * header's home link, not the links inside item rows).
 */
function namesInHtml(html: string) {
  const navs = [
    ...html.matchAll(/<nav class="(?:links|pager)"[^>]*>(.*?)<\/nav>/gs),
    ...html.matchAll(/<dd data-field="\w+">(<a rel="[^"]+")/g),
  ]
    .map((m) => m[1])
    .join('');
  return {
    rels: new Set([...navs.matchAll(/<a rel="([^"]+)"/g)].map((m) => m[1] as string)),
    controls: new Set([...html.matchAll(/<form rel="([^"]+)"/g)].map((m) => m[1] as string)),
  };
}

/**
 * The model's names as the HTML view shows them to a person: one edit form where the model offers both
 * `update` and `edit`, and signing in, in the header of every page, for an anonymous caller.
 */
function asPeopleSee(names: ReturnType<typeof namesInJson>, caller: string): ReturnType<typeof namesInJson> {
  const controls = new Set(names.controls);
  if (controls.has('edit')) controls.delete('update');
  if (caller === 'anonymous') controls.add('login');
  return { rels: names.rels, controls };
}

describe('one model, three formats', () => {
  const walks = Object.entries(resources).flatMap(([resource, path]) =>
    (['anonymous', 'member', 'librarian'] as const).map((caller) => ({ resource, path, caller })),
  );
  it.each(walks)(
    '$resource as $caller names the same links and controls in JSON, HAL-FORMS and HTML',
    async ({ path, caller }) => {
      const client = callers[caller];
      const get = (accept: string) => client.request(path, { headers: { Accept: accept } });
      const asJson = await get(formats.json.accept);
      if (asJson.status !== 200) {
        // A document the caller may not see is refused alike in every format.
        for (const format of ['hal-forms', 'html'] as const) {
          expect((await get(formats[format].accept)).status).toBe(asJson.status);
        }
        return;
      }
      const json = namesInJson((await asJson.json()) as Parameters<typeof namesInJson>[0]);
      const halForms = namesInHalForms(
        (await (await get(formats['hal-forms'].accept)).json()) as Parameters<typeof namesInHalForms>[0],
      );
      const html = namesInHtml(await (await get(formats.html.accept)).text());
      expect(json.rels.size + json.controls.size).toBeGreaterThan(0);
      expect(halForms).toEqual(json);
      expect(html).toEqual(asPeopleSee(json, caller));
    },
  );
});
