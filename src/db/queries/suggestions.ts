/**
 * @module Suggestions as a person types: authors whose names and books whose titles (or authors) match the
 * text so far (`planCompletion`). However many match, a bounded number of each kind is read, unsorted, from
 * its full-text index, and only those are ordered: matches of the words as typed before those that forgave
 * a typo, then a text that begins the name or title before one found further in, then the shorter.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { rowsOf } from '../client.js';
import { foldedWords } from '../schema/folded-words.js';
import { authors, books } from '../schema/index.js';
import { authorListing } from './authors.js';
import { bookListing } from './books.js';
import { type CompletionMatch, type CompletionPlan, planCompletion, type SearchTable } from './search.js';

/** One suggestion: an author (by name) or a book (by title). */
export interface SuggestionRow {
  type: 'author' | 'book';
  id: number;
  label: string;
}

export interface SuggestionParams {
  /** The text typed so far. */
  text: string;
  /** Most suggestions in all. */
  total: number;
  /** Most of them that are authors: they come first, and books take the rest. */
  authors: number;
}

/** How each kind is read: its table, the label shown, and how its words are searched. */
const kinds = {
  author: {
    table: authors,
    id: authors.id,
    label: authors.name,
    words: authors.nameWords,
    search: authorListing.search,
  },
  book: { table: books, id: books.id, label: books.title, words: books.titleWords, search: bookListing.search },
} as const satisfies Record<SuggestionRow['type'], { search: SearchTable } & Record<string, unknown>>;

/** Common matches read of each kind, for each of its two plans, before the best are picked. */
const READ_AT_MOST = 50;
/** Rows scanned for them, at most: a word in one row of five hundred (`COMMON_MATCHES` in a million) is found about twenty times. */
const SCANNED_AT_MOST = 10_000;
/**
 * Rare matches read at most (the dictionary cannot count words with digits): above the planner's estimate for
 * any one word, so that it still reads them from the index rather than scanning the table for them.
 */
const RARE_AT_MOST = 20_000;

/** The authors, then the books, that the text typed so far may mean, each kind best first. */
export async function findSuggestions(db: Db, params: SuggestionParams): Promise<SuggestionRow[]> {
  const [names, titles] = await Promise.all([
    planCompletion(db, kinds.author.search, params.text),
    planCompletion(db, kinds.book.search, params.text),
  ]);
  if (!names || !titles) return [];
  const rows = rowsOf<SuggestionRow>(
    await db.execute(sql`
      ${best('author', names, params.text, params.authors)}
      union all
      ${best('book', titles, params.text, params.total)}`),
  );
  const found = rows.map((row) => ({ type: row.type, id: Number(row.id), label: row.label }));
  const authorsFound = found.filter((row) => row.type === 'author');
  const booksFound = found.filter((row) => row.type === 'book');
  return [...authorsFound, ...booksFound.slice(0, params.total - authorsFound.length)];
}

/** The best `limit` among the first matches of each plan of one kind. */
function best(type: SuggestionRow['type'], plan: CompletionPlan, text: string, limit: number): SQL {
  const { table, id, label, words, search } = kinds[type];
  // Common matches: the first few among the first rows in table order (a bounded scan, whatever the words
  // and however they go together). Rare ones: from the full-text index, which the planner then reads.
  const read = ({ query, common }: CompletionMatch, tier: number) =>
    common
      ? sql`(select id, label, words, ${tier}::int as tier from (
          select ${id} as id, ${label} as label, ${words} as words, ${search.column} as search from ${table}
          limit ${SCANNED_AT_MOST}
        ) as scanned where search @@ ${query} limit ${READ_AT_MOST})`
      : sql`(select ${id} as id, ${label} as label, ${words} as words, ${tier}::int as tier from ${table}
          where ${search.column} @@ ${query} limit ${RARE_AT_MOST})`;
  const matches = plan.near ? sql`${read(plan.typed, 0)} union all ${read(plan.near, 1)}` : read(plan.typed, 0);
  // The text typed, read as the labels' words are stored.
  const typed = foldedWords(sql`${text}::text`);
  return sql`(select ${type}::text as type, id, label from (
      select id, label, words, min(tier) as tier from (${matches}) as matched group by id, label, words
    ) as candidates
    order by tier, starts_with(words, ${typed}) desc, char_length(label), id
    limit ${limit})`;
}
