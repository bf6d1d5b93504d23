/**
 * An automation script that knows the catalogue only by its root URL and the names of its link relations
 * and controls. Given a title to add (a librarian's token), it first follows `books` and submits the
 * collection's `create` control, choosing the author from the `author_id` field's options. Then it
 * searches for a book by keyword through the root's `search` control, borrows the first match whose
 * document offers `borrow`, follows the `Location` to the loan and submits its `return`. It builds no
 * URL: every request goes to an href the service gave it.
 *
 *   node --import tsx docs/examples/agent.ts <root-url> <token> <keyword> [title-to-add]
 *
 * (or CATALOGUE_URL, CATALOGUE_TOKEN, CATALOGUE_KEYWORD and CATALOGUE_ADD_TITLE in the environment). It speaks the plain JSON
 * format: `links` as `{rel, href}` and `controls` keyed by name, each `{href, method, fields}`.
 */

interface Field {
  name: string;
  required: boolean;
  value?: string | number | boolean;
  /** Where the valid values come from: a collection whose items' `valueField` is the value. */
  options?: { href: string; valueField: string; promptField: string };
}
interface Control {
  href: string;
  method: string;
  contentType?: string;
  fields: Field[];
}
interface Doc {
  links: { rel: string; href: string }[];
  controls?: Record<string, Control>;
  data?: Doc[];
  [property: string]: unknown;
}

const [rootUrl, token, keyword, titleToAdd] = [
  process.argv[2] ?? process.env.CATALOGUE_URL,
  process.argv[3] ?? process.env.CATALOGUE_TOKEN,
  process.argv[4] ?? process.env.CATALOGUE_KEYWORD,
  process.argv[5] ?? process.env.CATALOGUE_ADD_TITLE,
];
if (!rootUrl || !token || !keyword) {
  console.error('usage: agent.ts <root-url> <token> <keyword> [title-to-add]');
  process.exit(2);
}

/** One request, answered as the document and the `Location` (if any); anything but 2xx stops the script. */
async function request(url: URL, method = 'GET', body?: { contentType: string; values: object }) {
  const response = await fetch(url, {
    method,
    headers: {
      Accept: 'application/json',
      Authorization: `Bearer ${token}`,
      ...(body && { 'Content-Type': body.contentType }),
    },
    ...(body && { body: JSON.stringify(body.values) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url.pathname}${url.search} answered ${response.status}: ${text}`);
  const location = response.headers.get('location');
  return {
    doc: (text ? JSON.parse(text) : undefined) as Doc,
    location: location === null ? undefined : new URL(location, url),
  };
}

/** Follows the link with this rel. */
async function follow(doc: Doc, base: URL, rel: string): Promise<{ doc: Doc; url: URL }> {
  const link = doc.links.find((l) => l.rel === rel);
  if (!link) throw new Error(`no "${rel}" link`);
  const url = new URL(link.href, base);
  return { doc: (await request(url)).doc, url };
}

/**
 * Submits a control as a form would: each field gets the value given, else the value the control
 * suggests; GET sends them as query parameters, anything else as a body of the control's media type.
 */
async function submit(control: Control, base: URL, values: Record<string, unknown> = {}) {
  const filled: Record<string, unknown> = {};
  for (const field of control.fields) {
    const value = field.name in values ? values[field.name] : field.value;
    if (value !== undefined) filled[field.name] = value;
    else if (field.required) throw new Error(`the control needs "${field.name}"`);
  }
  const target = new URL(control.href, base);
  if (control.method === 'GET') {
    for (const [name, value] of Object.entries(filled)) target.searchParams.set(name, String(value));
    return request(target);
  }
  const body = { contentType: control.contentType ?? 'application/json', values: filled };
  return request(target, control.method, body);
}

const root = new URL(rootUrl);
const start = (await request(root)).doc;

if (titleToAdd) {
  const { doc: books, url } = await follow(start, root, 'books');
  const create = books.controls?.create;
  if (!create) throw new Error('the books collection offers no "create" control (is the token a librarian\'s?)');
  // The author comes from where the control says valid values live; the first one will do here.
  const authorField = create.fields.find((f) => f.name === 'author_id');
  if (!authorField?.options) throw new Error('the "create" control says nothing about where authors come from');
  const authors = (await request(new URL(authorField.options.href, url))).doc as unknown as Record<string, unknown>[];
  const author = authors[0];
  if (!author) throw new Error('there is no author to add a book for');
  const created = await submit(create, url, {
    title: titleToAdd,
    publication_year: new Date().getUTCFullYear(),
    author_id: author[authorField.options.valueField],
  });
  console.log(
    `added "${titleToAdd}" by ${String(author[authorField.options.promptField])} at ${created.location?.pathname}`,
  );
}

const search = start.controls?.search;
if (!search) throw new Error('the root offers no "search" control');
const results = (await submit(search, root, { query: keyword })).doc;
const matches = results.data ?? [];
console.log(`searched for "${keyword}": ${matches.length} book(s) on the first page`);

for (const match of matches) {
  const { doc: book, url } = await follow(match, root, 'self');
  const borrow = book.controls?.borrow;
  if (!borrow) {
    console.log(`"${book.title}" offers no borrow (available: ${book.available})`);
    continue;
  }
  console.log(`found "${book.title}" at ${url.pathname}, which offers borrow`);
  const borrowed = await submit(borrow, url);
  if (!borrowed.location) throw new Error('borrowing answered no Location');
  const loan = (await request(borrowed.location)).doc;
  console.log(`borrowed it: loan ${borrowed.location.pathname}, status ${loan.status}, due ${loan.due_at}`);
  const giveBack = loan.controls?.return;
  if (!giveBack) throw new Error('the loan offers no "return" control');
  const returned = (await submit(giveBack, borrowed.location)).doc;
  console.log(`returned it: loan ${borrowed.location.pathname}, status ${returned.status}`);
  process.exit(0);
}
console.error(`no book matching "${keyword}" can be borrowed now`);
process.exit(1);
