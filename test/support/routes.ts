/**
 * Every route the app serves, as its OpenAPI description lists them (generated from the route table, so a
 * route is here as soon as it is registered), and a catalogue with one of each resource to fill them in.
 */
import { addAuthor, addBook, addUser, json, type TestCatalogue, type TestClient } from './catalogue.js';
import { borrowed, held } from './circulation.js';
import type { CopyDocument, PageDoc, TokenDocument } from './documents.js';

/** One registered URI template and the methods it serves (upper case; HEAD and OPTIONS are implied). */
export interface ServedRoute {
  template: string;
  methods: string[];
}

/** The routes of the app behind `t`, read by its librarian from `/openapi.json`. */
export async function servedRoutes(t: TestCatalogue): Promise<ServedRoute[]> {
  const response = await t.request('/openapi.json');
  if (response.status !== 200) throw new Error(`/openapi.json answered ${response.status}`);
  const { paths } = await json<{ paths: Record<string, Record<string, unknown>> }>(response);
  return Object.entries(paths).map(([template, operations]) => ({
    template,
    methods: Object.keys(operations).map((method) => method.toUpperCase()),
  }));
}

/** The ids of one resource of each kind, by the path segment before their `{id}` (`books`, `loans`). */
export interface Fixture {
  ids: Record<string, number>;
  /** The user's token, for `{token}`. */
  token: number;
  /** Words of the catalogue's data that no anonymous answer of a closed catalogue may hold. */
  secrets: string[];
  member: TestClient;
}

/**
 * An author, their book (lent to a member), a copy, a hold on the book by a second member, and the
 * member's token: one of everything a route can name.
 */
export async function addFixture(t: TestCatalogue, tag: string): Promise<Fixture> {
  const authorName = `${tag} Quillfeather`;
  const title = `The ${tag} Reading Room`;
  const memberName = `${tag} Borrower`;
  const author = await addAuthor(t, authorName);
  const book = await addBook(t, title, 1961, author);
  const lender = await addUser(t, memberName);
  const member = t.as(lender.token);
  const loan = await borrowed(member, book);
  const waiting = await addUser(t, `${tag} Waiter`);
  const hold = await held(t.as(waiting.token), book);
  const copy = (await json<PageDoc<CopyDocument>>(await t.request(`/books/${book}/copies?page=1`))).data[0];
  const token = (await json<PageDoc<TokenDocument>>(await t.request(`/users/${lender.id}/tokens?page=1`))).data[0];
  if (copy === undefined) throw new Error('the fixture has no copy');
  if (token === undefined) throw new Error('the fixture has no token');
  return {
    ids: { books: book, authors: author, users: lender.id, loans: loan.id, copies: copy.id, holds: hold.id },
    token: token.id,
    secrets: [title, authorName, memberName],
    member,
  };
}

/** A template's path with the fixture's ids in it, and its query expression left out. */
export function fillPath(template: string, fixture: Fixture): string {
  return template
    .replace(/\{\?[^}]*\}$/, '')
    .replace(/\/(\w+)\/\{id\}/g, (_, kind: string) => `/${kind}/${fixture.ids[kind] ?? 1}`)
    .replace('{token}', String(fixture.token));
}
