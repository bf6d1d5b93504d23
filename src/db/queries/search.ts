/**
 * @module Forgiving search: what a person typed, as a `tsquery` that also finds the catalogue's words they
 * meant. Accents and case are folded by the text search configurations (`catalogue_english`,
 * `catalogue_simple`); each misspelt word may also match the catalogue's own words within an edit distance
 * (the `search_words` dictionary, kept by the writing transactions); the last word also matches as a prefix,
 * as a person types. Relevance ranks an exact match first, then the words as a phrase, then all the words
 * as typed, then matches that needed a correction (docs/api.md, "Searching").
 */
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '../client.js';
import { foldWords, type LookedUp, lookUpCompletion, lookUpFolded, lookUpWords } from './search-words.js';

/** How a collection is searched. */
export interface SearchTable {
  /** The tsvector searched. */
  column: PgColumn | SQL;
  /** The text search configuration it was built with. */
  config: 'catalogue_english' | 'catalogue_simple' | 'simple';
  /**
   * The dictionary words a misspelt word may be corrected to: those of titles or names (`any`, books, whose
   * vector has both) or of names only (authors); absent where nothing is corrected (users, tokens).
   */
  dictionary?: 'any' | 'names';
  /**
   * The exact key of the text an exact match is the whole of (a book's title, an author's name): the
   * column `catalogue_exact_key` fills, which an index serves (the `exact_keys` migration).
   */
  exact?: PgColumn;
  /**
   * An identifier a text typed alone names its item by (a book's ISBN): the column holding it, and the
   * identifier a text is, in its stored form, or `undefined` when it is none.
   */
  identifier?: { column: PgColumn; of(text: string): string | undefined };
}

/** What a search text matches, how its matches rank, and what it would be with its words corrected. */
export interface SearchPlan {
  /** The `tsquery` of every match. */
  query: SQL;
  /** Relevance of a matching row: higher first (a `real`). */
  rank: SQL<number>;
  /** The text with each misspelt word replaced by the word it most likely meant, when one was. */
  corrected?: string;
  /** Whether any word was matched by a correction (then `corrected` is the search the answer points to). */
  broadened: boolean;
  /**
   * The rows the text names exactly (their title or name reads as the text, or as the text corrected), by
   * an index; absent where the collection has no exact key.
   */
  exact?: SQL;
  /** The item the text names by its identifier (a bare ISBN): it matches too, and ranks above any other. */
  identified?: SQL;
  /**
   * Where `query` matches a word as a prefix (`'hous':*`), the same `tsquery` with that word exact: it
   * matches a subset of `query`'s matches, found without the prefix's posting lists (see `boundedCount`).
   */
  core?: SQL;
}

/** The rank of the item a text names by its identifier: above every tier of `rankOf` (all below 4). */
const IDENTIFIED = 4;

/** Plans the search of `text` in a collection; see `planWords`. A bare identifier also finds its item, first. */
export async function planSearch(
  db: Db,
  table: SearchTable,
  typed: string,
  options: { syntax?: boolean } = {},
): Promise<SearchPlan> {
  const text = unmarked(table, typed);
  const plan = await planWords(db, table, text, options);
  const identifier = table.identifier?.of(text);
  if (!table.identifier || identifier === undefined) return plan;
  const identified = sql`${table.identifier.column} = ${identifier}`;
  return {
    ...plan,
    identified,
    rank: sql<number>`(case when ${identified} then ${IDENTIFIED} else 0 end + ${plan.rank})::real`.mapWith(Number),
  };
}

/** Beyond this many words a text is matched as typed (folded), without looking each word up. */
const WORDS_LOOKED_UP = 16;

/** A word as typed: the runs of letters and digits, as the text search parser splits them. */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Marks that romanisation writes as letters (alif and ayn, the soft and hard signs, the saltillo, stress and
 * length), which the catalogue's configurations leave out of what they index (`catalogue_unmark`, the
 * `romanisation_marks` migration): `Qurʼān`, `Qurʾān` and `quran` are one word. The same list as there,
 * which test/search.test.ts holds the two to.
 */
export const ROMANISATION_MARKS = /[ʹʺʻʼʽʾʿˀˁˆˇˈˉˊˋˌˍˎˏːˑˬˮꞋꞌ]/gu;

/** The text as the collection's configuration reads it: without romanisation's marks, where it leaves them out. */
function unmarked(table: SearchTable, text: string): string {
  return table.config === 'simple' ? text : text.replace(ROMANISATION_MARKS, '');
}

/**
 * The text with each apostrophe inside a word left out (`qurʼan` typed `qur'an`, `O'Brien` as `OBrien`), where
 * it has one: the parser splits a word at an apostrophe, and romanisation's marks, which a person types as one,
 * are left out of the index. `undefined` when the text has none.
 */
function joinedAtApostrophes(text: string): string | undefined {
  const joined = text.replace(/(?<=[\p{L}\p{N}])['’](?=[\p{L}\p{N}])/gu, '');
  return joined === text ? undefined : joined;
}

/** Web search syntax: a quoted phrase, `or`, or `-word`. Such a text is matched as written, not broadened. */
export function usesSearchSyntax(text: string): boolean {
  return /["]|(^|\s)-\S|(^|\s)or(\s|$)/i.test(text);
}

/**
 * A word as one operand of `to_tsquery`: quoted, so that whatever folding made of it stays one operand.
 * `undefined` when nothing of it is left to quote: a letter that the installation's `unaccent` rules fold to
 * an apostrophe (those PostgreSQL 15's rules fold so are romanisation's marks, which `unmarked` left out).
 */
function operand(word: string, prefix = false): string | undefined {
  const quoted = word.replace(/['\\]/g, '');
  return quoted === '' ? undefined : `'${quoted}'${prefix ? ':*' : ''}`;
}

/** Plans the search of the words of `text` in a collection; see the module. */
async function planWords(
  db: Db,
  table: SearchTable,
  text: string,
  options: { syntax?: boolean } = {},
): Promise<SearchPlan> {
  const config = sql.raw(`'${table.config}'::regconfig`);
  // Names (`author=`) are matched as typed: quotes and dashes in them are not search syntax.
  const syntax = options.syntax !== false && usesSearchSyntax(text);
  const typed = [...text.matchAll(WORD)].map((match) => match[0].toLowerCase());
  if (!table.dictionary || typed.length === 0 || typed.length > WORDS_LOOKED_UP) {
    const query = syntax || typed.length === 0 ? sql`websearch_to_tsquery(${config}, ${text})` : asTypedQuery(typed);
    const exact = exactOf(table, config, [text]);
    return {
      query,
      rank: sql<number>`ts_rank(${table.column}, ${query}, 32)`.mapWith(Number),
      broadened: false,
      ...(exact && { exact }),
    };
  }
  const looked = await lookUpWords(db, typed, table.dictionary, !syntax);
  const corrected = correctedText(text, looked);
  const broadened = !syntax && looked.some((word) => !word.known && word.corrections.length > 0);
  const last = looked.length - 1;
  // The last word also as a prefix (`prefixed`), or only as a word (the core of the matches).
  const typedWords = (prefixed: boolean) =>
    looked.map((word, i) =>
      i === last && !syntax
        ? [operand(word.folded, prefixed), ...word.completions.map((c) => operand(c))]
        : [operand(word.folded)],
    );
  const asTyped = typedWords(true);
  // What the text matched before it was forgiven, too, when the parser may read it otherwise: it keeps
  // tokens such as `4.50` whole, which the words looked up split. Plain words it reads as they are looked
  // up, and matching them twice would walk the index twice.
  // A word split at an apostrophe also as one word: `qur'an` finds Qurʼān. Not with search syntax, whose
  // `-o'brien` must exclude both readings, not either.
  const joined = syntax ? undefined : joinedAtApostrophes(text);
  const parsed = [
    ...(PLAIN_WORDS.test(text) ? [] : [sql`websearch_to_tsquery(${config}, ${text})`]),
    ...(joined === undefined ? [] : [sql`websearch_to_tsquery(${config}, ${joined})`]),
  ];
  const typedQuery = anyOf([...parsed, tsQuery(config, asTyped)]);
  if (syntax) {
    const query = sql`websearch_to_tsquery(${config}, ${text})`;
    return { query, ...ranking(table, config, query, typedQuery, [text]), corrected, broadened };
  }
  // Each word any of its alternatives: as typed, and the corrections of a word the catalogue lacks.
  const matching = (typedAs: (string | undefined)[][]) =>
    anyOf([
      ...parsed,
      tsQuery(
        config,
        looked.map((word, i) => [
          ...(typedAs[i] ?? []),
          ...(!broadened || word.known ? [] : word.corrections.map((c) => operand(c))),
        ]),
      ),
    ]);
  const query = matching(asTyped);
  // What was meant ranks as if it had been typed: an exact title after a correction is still exact.
  const texts = [
    text,
    ...(joined === undefined ? [] : [joined]),
    ...(broadened && corrected !== undefined ? [corrected] : []),
  ];
  return {
    query,
    ...ranking(table, config, query, typedQuery, texts),
    corrected,
    broadened,
    core: matching(typedWords(false)),
  };

  /** The words as typed (folded), all of them, the last one also as a prefix (no web search syntax). */
  function asTypedQuery(words: string[]): SQL {
    return tsQuery(
      config,
      words.map((word, i) => [operand(word, !syntax && i === words.length - 1)]),
    );
  }
}

/** Text the search parser splits into exactly the words `WORD` finds: letters, digits and spaces. */
const PLAIN_WORDS = /^[\p{L}\p{N}\s]*$/u;

/** A `tsquery` matching what any of these match. */
function anyOf(queries: SQL[]): SQL {
  return queries.length === 1 ? (queries[0] as SQL) : sql`(${sql.join(queries, sql` || `)})`;
}

/**
 * Every word, each one any of its alternatives. A word without one is left out, as the parser leaves out what
 * it cannot read; with none left, the query matches nothing.
 */
function tsQuery(config: SQL, words: (string | undefined)[][]): SQL {
  const text = words
    .map((alternatives) => alternatives.filter((alternative) => alternative !== undefined))
    .filter((alternatives) => alternatives.length > 0)
    .map((alternatives) => (alternatives.length === 1 ? alternatives[0] : `(${alternatives.join(' | ')})`))
    .join(' & ');
  return sql`to_tsquery(${config}, ${text})`;
}

/** How the matches of a search rank, and which of them it names exactly. */
function ranking(
  table: SearchTable,
  config: SQL,
  query: SQL,
  typedQuery: SQL,
  texts: readonly string[],
): Pick<SearchPlan, 'rank' | 'exact'> {
  const exact = exactOf(table, config, texts);
  return { rank: rankOf(table, config, query, typedQuery, texts, exact), ...(exact && { exact }) };
}

/**
 * The rows whose title (name) reads as one of the texts, word for word (`catalogue_exact_key`), so "the
 * hobbit" and "hobbit" are both exactly The Hobbit; undefined where the collection has no exact keys.
 */
function exactOf(table: SearchTable, config: SQL, texts: readonly string[]): SQL | undefined {
  if (!table.exact) return undefined;
  const keys = sql.join(
    texts.map((text) => sql`catalogue_exact_key(${config}, ${text})`),
    sql`, `,
  );
  return sql`(${table.exact} = any(array[${keys}]::text[]))`;
}

/**
 * Relevance, as a `real`: the tier (3 an exact match of the whole title or name, 2 the words as a phrase,
 * 1 all the words as typed, 0 only with corrections) plus `ts_rank` normalised into [0, 1) (flag 32), so
 * that a tier always outranks the one below.
 */
function rankOf(
  table: SearchTable,
  config: SQL,
  query: SQL,
  typedQuery: SQL,
  texts: readonly string[],
  exact: SQL | undefined,
): SQL<number> {
  const tiers = [
    ...(exact ? [sql`when ${exact} then 3`] : []),
    ...texts.map((text) => sql`when ${table.column} @@ phraseto_tsquery(${config}, ${text}) then 2`),
  ];
  return sql<number>`((case ${sql.join(tiers, sql` `)}
      when ${table.column} @@ ${typedQuery} then 1
      else 0 end) + ts_rank(${table.column}, ${query}, 32))::real`.mapWith(Number);
}

/** The text with each word that needed a correction replaced by its first; undefined when none did. */
function correctedText(text: string, looked: LookedUp[]): string | undefined {
  let i = 0;
  let changed = false;
  const corrected = text.replace(WORD, (word) => {
    const fix = looked[i++];
    if (!fix || fix.known || fix.corrections.length === 0) return word;
    changed = true;
    return fix.corrections[0] as string;
  });
  return changed ? corrected : undefined;
}

/**
 * Matches at least this many titles or names, by the dictionary's counts, are common: read in table order,
 * the first few come soon, where the full-text index would list every one of them first. Fewer are rare:
 * the index finds them all at once. (A text search's row estimate cannot tell the two apart for a word
 * outside its statistics, nor for a misspelling's corrections.)
 */
export const COMMON_MATCHES = 2000;

/** One way of matching a text as it is typed. */
export interface CompletionMatch {
  /** The `tsquery` of the matches. */
  query: SQL;
  /** Whether the matches are common (`COMMON_MATCHES`): found soon in table order, else from the index. */
  common: boolean;
}

/** What a text may mean as a person types it (`planCompletion`), as matches of a collection's words. */
export interface CompletionPlan {
  /**
   * The words as typed, the last one as the start of a word, each earlier one also as the words it may be a
   * misspelling of (corrected as `planSearch` corrects them).
   */
  typed: CompletionMatch;
  /**
   * The same earlier words, the last one as the words whose start is one edit from it, or (a whole word
   * that none begins with) the words it misspells; absent when there are none.
   */
  near?: CompletionMatch;
}

/**
 * Plans the matches of a text a person is still typing (suggestions): accents and case folded, earlier words
 * corrected as in a search, and the last word a prefix, with a typo forgiven (see `Completion.near`). The
 * text is not search syntax. `undefined` when it has no words.
 */
export async function planCompletion(db: Db, table: SearchTable, text: string): Promise<CompletionPlan | undefined> {
  const config = sql.raw(`'${table.config}'::regconfig`);
  const typed = [...unmarked(table, text).matchAll(WORD)].map((match) => match[0].toLowerCase());
  if (typed.length === 0) return undefined;
  if (!table.dictionary || typed.length > WORDS_LOOKED_UP) {
    const query = tsQuery(
      config,
      typed.map((word, i) => [operand(word, i === typed.length - 1)]),
    );
    return { typed: { query, common: false } };
  }
  // What the last word may begin needs only its folded form: it is looked up beside the words.
  const folded = await foldWords(db, typed);
  const [looked, completion] = await Promise.all([
    lookUpFolded(db, folded, table.dictionary, true),
    lookUpCompletion(db, folded.at(-1) as string, table.dictionary),
  ]);
  const last = looked.at(-1) as LookedUp;
  const before = looked.slice(0, -1);
  const earlier = before.map((word) => [
    operand(word.folded),
    ...(word.known ? [] : word.corrections.map((c) => operand(c))),
  ]);
  // All the words must match: the matches are at most as many as those of the rarest. Words with digits are
  // not in the dictionary, which cannot count them; a text of nothing else counts as rare.
  const counted = (word: LookedUp, uses: number) => (/\p{N}/u.test(word.folded) ? [] : [uses]);
  const fewestEarlier = before.flatMap((word) => counted(word, word.uses));
  const common = (lastUses: number) => {
    const fewest = Math.min(...fewestEarlier, ...counted(last, lastUses));
    return Number.isFinite(fewest) && fewest >= COMMON_MATCHES;
  };
  const begun = [operand(last.folded, true), ...last.completions.map((c) => operand(c))];
  const near = [...new Set([...completion.near, ...(last.known ? [] : last.corrections)])].map((c) => operand(c));
  return {
    typed: { query: tsQuery(config, [...earlier, begun]), common: common(completion.begunUses) },
    ...(near.length > 0 && {
      near: { query: tsQuery(config, [...earlier, near]), common: common(completion.nearUses) },
    }),
  };
}
