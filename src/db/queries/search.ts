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
import { rowsOf } from '../client.js';

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
  /** The text an exact match is the whole of (a book's title, an author's name). */
  exact?: PgColumn;
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
}

/** Words this long and longer are corrected, within this many edits; shorter ones only match as typed. */
const EDITS_BY_LENGTH: ReadonlyArray<readonly [minLength: number, edits: number]> = [
  [8, 2],
  [4, 1],
];
/** Dictionary words nearest by trigrams, among which those within the edit distance are looked for. */
const CANDIDATES = 64;
/** Completions of the last word also matched as whole words (see `LookedUp.completions`). */
const COMPLETIONS = 8;
/** A last word shorter than this is matched as a prefix only: it begins too many words to pick from. */
const COMPLETED_FROM = 3;
/** Corrections a misspelt word also matches (the first is the one a "did you mean" proposes). */
const CORRECTIONS_PER_WORD = 3;
/** Beyond this many words a text is matched as typed (folded), without looking each word up. */
const WORDS_LOOKED_UP = 16;

/** A word as typed: the runs of letters and digits, as the text search parser splits them. */
const WORD = /[\p{L}\p{N}]+/gu;

/** Web search syntax: a quoted phrase, `or`, or `-word`. Such a text is matched as written, not broadened. */
export function usesSearchSyntax(text: string): boolean {
  return /["]|(^|\s)-\S|(^|\s)or(\s|$)/i.test(text);
}

function editsFor(word: string): number {
  const length = [...word].length;
  return EDITS_BY_LENGTH.find(([minLength]) => length >= minLength)?.[1] ?? 0;
}

interface LookedUp {
  folded: string;
  /** The word is one of the catalogue's (or, the last word, begins one): it needs no correction. */
  known: boolean;
  /**
   * The last word: the catalogue's most used words it begins. Matched beside the prefix itself, because a
   * prefix is stemmed as if it were a word (`darknes` → `darkn`), which the stem of `darkness` (`dark`) is not.
   */
  completions: string[];
  corrections: string[];
}

/**
 * Looks every word up in one statement: folded as the index folds it, whether the catalogue has it (the
 * last word: whether a word of the catalogue begins with it), and if not, the words within its edit
 * distance, nearest first, then the most used.
 */
async function lookUp(db: Db, words: string[], dictionary: 'any' | 'names', lastIsPrefix: boolean) {
  const used = dictionary === 'names' ? sql`s.in_names > 0` : sql`true`;
  const uses = dictionary === 'names' ? sql`s.in_names` : sql`s.in_titles + s.in_names`;
  const edits = words.map(editsFor);
  // One JSON parameter: both drivers pass it the same way, where an array parameter would not be.
  const rows = rowsOf<{
    i: number;
    folded: string;
    known: boolean;
    completions: string[] | string;
    corrections: string[] | string;
  }>(
    await db.execute(sql`
      select t.i::int as i, f.folded, k.known, k.completions,
        case when k.known or cardinality(k.completions) > 0 or t.edits = 0 then '{}'::text[] else array(
          select c.word from (
            select s.word, ${uses} as uses from search_words s where ${used}
            order by s.word <-> f.folded limit ${CANDIDATES}
          ) as c
          where c.word <> f.folded and levenshtein_less_equal(c.word, f.folded, t.edits) <= t.edits
          order by levenshtein(c.word, f.folded), c.uses desc, c.word
          limit ${CORRECTIONS_PER_WORD}
        ) end as corrections
      from json_to_recordset(${JSON.stringify(words.map((word, i) => ({ word, edits: edits[i], i: i + 1 })))}::json)
          as t(word text, edits int, i int),
        lateral (select catalogue_fold(t.word) as folded) as f,
        lateral (select
          exists (select 1 from search_words s where s.word = f.folded and ${used}) as known,
          array(
            select s.word from search_words s
            where t.i = ${words.length} and ${lastIsPrefix} and char_length(f.folded) >= ${COMPLETED_FROM}
              and s.word like f.folded || '%' and s.word <> f.folded and ${used}
            order by ${uses} desc, s.word
            limit ${COMPLETIONS}
          ) as completions) as k
      order by t.i`),
  );
  return rows.map((row): LookedUp => {
    const completions = parseArray(row.completions);
    return {
      folded: row.folded,
      known: row.known || completions.length > 0,
      completions,
      corrections: parseArray(row.corrections),
    };
  });
}

/** A `text[]` as the driver hands it over: an array, or (PGlite for some plans) its literal. */
function parseArray(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  const inner = value.slice(1, -1);
  return inner === '' ? [] : inner.split(',').map((item) => item.replace(/^"|"$/g, ''));
}

/** A word as one operand of `to_tsquery`: quoted, so that whatever folding made of it stays one operand. */
function operand(word: string, prefix = false): string {
  return `'${word.replace(/['\\]/g, '')}'${prefix ? ':*' : ''}`;
}

/** Plans the search of `text` in a collection; see the module. */
export async function planSearch(
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
    return { query, rank: sql<number>`ts_rank(${table.column}, ${query}, 32)`.mapWith(Number), broadened: false };
  }
  const looked = await lookUp(db, typed, table.dictionary, !syntax);
  const corrected = correctedText(text, looked);
  const broadened = !syntax && looked.some((word) => !word.known && word.corrections.length > 0);
  const last = looked.length - 1;
  const asTyped = looked.map((word, i) =>
    i === last && !syntax
      ? [operand(word.folded, true), ...word.completions.map((c) => operand(c))]
      : [operand(word.folded)],
  );
  // What the text matched before it was forgiven, too: the parser keeps tokens such as `4.50` whole,
  // which the words looked up split.
  const typedQuery = sql`(websearch_to_tsquery(${config}, ${text}) || ${tsQuery(config, asTyped)})`;
  let query: SQL;
  if (syntax) query = sql`websearch_to_tsquery(${config}, ${text})`;
  else if (!broadened) query = typedQuery;
  else {
    const alternatives = looked.map((word, i) => [
      ...(asTyped[i] ?? []),
      ...(word.known ? [] : word.corrections.map((c) => operand(c))),
    ]);
    query = sql`(websearch_to_tsquery(${config}, ${text}) || ${tsQuery(config, alternatives)})`;
  }
  // What was meant ranks as if it had been typed: an exact title after a correction is still exact.
  const texts = broadened && corrected !== undefined ? [text, corrected] : [text];
  return { query, rank: rankOf(table, config, query, typedQuery, texts), corrected, broadened };

  /** The words as typed (folded), all of them, the last one also as a prefix (no web search syntax). */
  function asTypedQuery(words: string[]): SQL {
    return tsQuery(
      config,
      words.map((word, i) => [operand(word, !syntax && i === words.length - 1)]),
    );
  }
}

/** Every word, each one any of its alternatives. */
function tsQuery(config: SQL, words: string[][]): SQL {
  const text = words
    .map((alternatives) => (alternatives.length === 1 ? alternatives[0] : `(${alternatives.join(' | ')})`))
    .join(' & ');
  return sql`to_tsquery(${config}, ${text})`;
}

/**
 * Relevance, as a `real`: the tier (3 an exact match of the whole title or name, 2 the words as a phrase,
 * 1 all the words as typed, 0 only with corrections) plus `ts_rank` normalised into [0, 1) (flag 32), so
 * that a tier always outranks the one below.
 */
function rankOf(table: SearchTable, config: SQL, query: SQL, typedQuery: SQL, texts: readonly string[]): SQL<number> {
  // Exact: the whole title has the words of the text in order, and no other word (`length` counts a
  // tsvector's words), so "the hobbit" and "hobbit" are both exactly The Hobbit.
  const exact = table.exact
    ? texts.map(
        (text) =>
          sql`when to_tsvector(${config}, ${table.exact}) @@ phraseto_tsquery(${config}, ${text})
            and length(to_tsvector(${config}, ${table.exact})) = length(to_tsvector(${config}, ${text})) then 3`,
      )
    : [];
  const phrase = texts.map((text) => sql`when ${table.column} @@ phraseto_tsquery(${config}, ${text}) then 2`);
  return sql<number>`((case ${sql.join([...exact, ...phrase], sql` `)}
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
