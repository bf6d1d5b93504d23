/**
 * The same errand as `agent.ts`, with Ketting (npm `ketting`), a generic hypermedia client: it reads HAL
 * links and HAL-FORMS templates, so the script names only rels and controls. It searches through the
 * root's `search` template, borrows the first match that offers `borrow`, follows the `Location` to the
 * loan and submits its `return`.
 *
 *   node --import tsx docs/examples/ketting.ts <root-url> <token> <keyword>
 *
 * (or CATALOGUE_URL, CATALOGUE_TOKEN and CATALOGUE_KEYWORD in the environment).
 */
import { bearerAuth, Ketting } from 'ketting';

const [rootUrl, token, keyword] = [
  process.argv[2] ?? process.env.CATALOGUE_URL,
  process.argv[3] ?? process.env.CATALOGUE_TOKEN,
  process.argv[4] ?? process.env.CATALOGUE_KEYWORD,
];
if (!rootUrl || !token || !keyword) {
  console.error('usage: ketting.ts <root-url> <token> <keyword>');
  process.exit(2);
}

const client = new Ketting(rootUrl);
client.use(bearerAuth(token));

const root = await client.go().get();
const results = await root.action('search').submit({ query: keyword });
const matches = results.followAll('item');
console.log(`searched for "${keyword}": ${matches.length} book(s) on the first page`);

for (const match of matches) {
  // A page's members are partial (links only), and Ketting caches them as if whole: fetch the book itself.
  const book = await match.refresh();
  if (!book.hasAction('borrow')) {
    console.log(`"${book.data.title}" offers no borrow (available: ${book.data.available})`);
    continue;
  }
  console.log(`found "${book.data.title}" at ${new URL(book.uri).pathname}, which offers borrow`);
  const borrowed = await book.action('borrow').submit({});
  const location = borrowed.headers.get('Location');
  if (!location) throw new Error('borrowing answered no Location');
  const loan = client.go(location);
  const active = await loan.get();
  console.log(
    `borrowed it: loan ${new URL(loan.uri).pathname}, status ${active.data.status}, due ${active.data.due_at}`,
  );
  const returned = await active.action('return').submit({});
  console.log(`returned it: loan ${new URL(loan.uri).pathname}, status ${returned.data.status}`);
  process.exit(0);
}
console.error(`no book matching "${keyword}" can be borrowed now`);
process.exit(1);
