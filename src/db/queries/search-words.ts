/**
 * @module Looks typed words up in the catalogue's dictionary (`search_words`): folded as the index folds
 * them, whether the catalogue has them, the words a last word begins, and the words a misspelt one most
 * likely meant.
 *
 * One edit away (a letter left out, added, changed, or two swapped) is found by looking up every word one
 * edit from the typed one, a few hundred primary-key probes: exact, and of a cost set by the word's
 * length alone, whatever the dictionary's size. Two edits away (words of eight letters or more, when
 * nothing is one edit away) is found among the 64 words nearest by trigrams (the GiST index), checked with
 * `levenshtein_less_equal`: enumerating every word two edits away would be a hundred thousand probes.
 */
import { and, desc, gt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../client.js';
import { rowsOf } from '../client.js';
import { searchWords } from '../schema/index.js';

/** Which of a word's uses count: any (books, whose vector has titles and names) or names only (authors). */
export type Dictionary = 'any' | 'names';

/** What the dictionary says of one typed word. */
export interface LookedUp {
  folded: string;
  /** The word is one of the catalogue's (or, the last word, begins one): it needs no correction. */
  known: boolean;
  /**
   * The last word: the catalogue's most used words it begins. Matched beside the prefix itself, because a
   * prefix is stemmed as if it were a word (`darknes` → `darkn`), which the stem of `darkness` (`dark`) is not.
   */
  completions: string[];
  /** The words it most likely meant, nearest first, then the most used; empty when known. */
  corrections: string[];
  /** How many titles and names (those of the dictionary searched) have the word. */
  uses: number;
}

/** What the dictionary says of a last word still being typed (`lookUpCompletion`). */
export interface Completion {
  /** How many titles and names have a word it begins (counted over up to `BEGUN_COUNTED` words). */
  begunUses: number;
  /**
   * The most used words whose start is one edit from it (`hemm` → hemingway, `tolkein` → tolkien: a letter
   * changed, added, left out or two swapped), other than those it begins; from four letters on.
   */
  near: string[];
  /** How many titles and names have one of the `near` words. */
  nearUses: number;
}

/** Words this long and longer are corrected, within this many edits; shorter ones only match as typed. */
const EDITS_BY_LENGTH: ReadonlyArray<readonly [minLength: number, edits: number]> = [
  [8, 2],
  [4, 1],
];
/** Completions of the last word also matched as whole words. */
const COMPLETIONS = 8;
/** A last word shorter than this is matched as a prefix only: it begins too many words to pick from. */
const COMPLETED_FROM = 3;
/** Corrections a misspelt word also matches (the first is the one a "did you mean" proposes). */
const CORRECTIONS_PER_WORD = 3;
/** Dictionary words nearest by trigrams among which words two edits away are looked for. */
const CANDIDATES = 64;
/** The letters an edit may add or change: folded words are in these, and those of the word itself. */
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Words longer than this are matched only as typed: no word people misspell is this long, and the strings
 * one edit from a word grow with its length (and `levenshtein` refuses strings over 255 characters).
 */
const LONGEST_CORRECTED = 40;

/** The words of a dictionary (those some title or name has, or names only), and how many use each. */
function counted(dictionary: Dictionary): { usable: SQL; uses: SQL<number> } {
  return dictionary === 'names'
    ? { usable: gt(searchWords.inNames, 0) as SQL, uses: sql<number>`${searchWords.inNames}` }
    : { usable: sql`true`, uses: sql<number>`${searchWords.inTitles} + ${searchWords.inNames}` };
}

/** How many edits a word of this many letters may be corrected by. */
export function editsFor(word: string): number {
  const length = [...word].length;
  if (length > LONGEST_CORRECTED) return 0;
  return EDITS_BY_LENGTH.find(([minLength]) => length >= minLength)?.[1] ?? 0;
}

/** Every string one edit from `word`: a letter deleted, two adjacent swapped, one changed, one inserted. */
export function oneEditFrom(word: string): Set<string> {
  const letters = [...word];
  const alphabet = new Set([...LETTERS, ...letters]);
  const variants = new Set<string>();
  const at = (i: number) => letters.slice(0, i).join('');
  const from = (i: number) => letters.slice(i).join('');
  for (let i = 0; i <= letters.length; i++) {
    if (i < letters.length) variants.add(at(i) + from(i + 1));
    if (i < letters.length - 1) variants.add(at(i) + letters[i + 1] + letters[i] + from(i + 2));
    for (const letter of alphabet) {
      if (i < letters.length) variants.add(at(i) + letter + from(i + 1));
      variants.add(at(i) + letter + from(i));
    }
  }
  variants.delete(word);
  return variants;
}

/** Only letters: numbers and codes are never corrected. */
const CORRECTABLE = /^\p{L}+$/u;

/**
 * Looks the words up; `lastIsPrefix` when the last word is being typed (it may be unfinished). Short
 * statements: fold, then look up the words and the last word's completions; only for words the catalogue
 * does not have, everything one edit from them, and (rarely) the words two edits from the long ones.
 */
export async function lookUpWords(
  db: Db,
  words: string[],
  dictionary: Dictionary,
  lastIsPrefix: boolean,
): Promise<LookedUp[]> {
  return lookUpFolded(db, await foldWords(db, words), dictionary, lastIsPrefix);
}

/** `lookUpWords` of words already folded (`foldWords`). */
export async function lookUpFolded(
  db: Db,
  folded: string[],
  dictionary: Dictionary,
  lastIsPrefix: boolean,
): Promise<LookedUp[]> {
  const last = folded.length - 1;
  const { usable, uses } = counted(dictionary);

  // The probes as one array: a misspelt word's few hundred variants as as many parameters cost more to
  // build, send and parse than the lookup itself.
  const select = (probes: string[]) =>
    db
      .select({ word: searchWords.word, uses })
      .from(searchWords)
      .where(and(sql`${searchWords.word} = any(${sql.param(probes)}::text[])`, usable));
  const prefix = lastIsPrefix && [...(folded[last] ?? '')].length >= COMPLETED_FROM ? folded[last] : undefined;
  const [found, completions] = await Promise.all([
    select([...new Set(folded)]),
    prefix === undefined
      ? Promise.resolve([])
      : db
          .select({ word: searchWords.word })
          .from(searchWords)
          .where(
            and(sql`${searchWords.word} like ${likePrefix(prefix)}`, sql`${searchWords.word} <> ${prefix}`, usable),
          )
          .orderBy(desc(uses), searchWords.word)
          .limit(COMPLETIONS),
  ]);
  const usesOf = new Map(found.map((row) => [row.word, Number(row.uses)]));
  const looked = folded.map((word, i): LookedUp => {
    const completed = i === last ? completions.map((row) => row.word) : [];
    const known = usesOf.has(word) || completed.length > 0;
    return { folded: word, known, completions: completed, corrections: [], uses: usesOf.get(word) ?? 0 };
  });
  // Only the words the catalogue does not have are looked for one edit away: most searches have none.
  const misspelt = looked.filter((word) => !word.known && editsFor(word.folded) > 0 && CORRECTABLE.test(word.folded));
  if (misspelt.length > 0) {
    const variants = new Map(misspelt.map((word) => [word.folded, oneEditFrom(word.folded)]));
    const near = await select([...new Set([...variants.values()].flatMap((set) => [...set]))]);
    const nearUses = new Map(near.map((row) => [row.word, Number(row.uses)]));
    for (const word of misspelt) {
      word.corrections = [...(variants.get(word.folded) ?? [])]
        .filter((variant) => nearUses.has(variant))
        .sort((x, y) => (nearUses.get(y) ?? 0) - (nearUses.get(x) ?? 0) || (x < y ? -1 : 1))
        .slice(0, CORRECTIONS_PER_WORD);
    }
  }
  const farther = looked.filter(
    (word) =>
      !word.known && word.corrections.length === 0 && editsFor(word.folded) > 1 && CORRECTABLE.test(word.folded),
  );
  if (farther.length > 0) {
    const twoEdits = await twoEditsFrom(db, [...new Set(farther.map((word) => word.folded))], dictionary);
    for (const word of farther) word.corrections = twoEdits.get(word.folded) ?? [];
  }
  return looked;
}

/** Words beginning with a last word whose uses are added up (`Completion.begunUses`): bounds the sum's cost. */
const BEGUN_COUNTED = 1000;

/**
 * What a last word still being typed (folded) may begin: how many use the words it begins, and the words
 * whose start is one edit from it. Each string one edit from it is a prefix read as a range of the prefix
 * index (`~>=~`, `~<~`: byte order, whatever the collation), a few words each.
 */
export async function lookUpCompletion(db: Db, word: string, dictionary: Dictionary): Promise<Completion> {
  const { usable, uses } = counted(dictionary);
  const variants = editsFor(word) > 0 && CORRECTABLE.test(word) ? [...oneEditFrom(word)] : [];
  const [begun, near] = await Promise.all([
    db.execute(sql`select coalesce(sum(b.uses), 0)::int as uses from (
        select ${uses} as uses from ${searchWords} where ${searchWords.word} like ${likePrefix(word)} and ${usable}
        limit ${BEGUN_COUNTED}) as b`),
    variants.length === 0
      ? Promise.resolve([])
      : db.execute(sql`
          select distinct n.word, n.uses from unnest(${sql.param(variants)}::text[]) as v(prefix),
          lateral (
            select ${searchWords.word}, ${uses} as uses from ${searchWords}
            where ${searchWords.word} ~>=~ v.prefix and ${searchWords.word} ~<~ (v.prefix || ${LAST_CHARACTER}::text) and ${usable}
              and not starts_with(${searchWords.word}, ${word}::text)
            order by ${uses} desc limit ${COMPLETIONS}
          ) as n
          order by n.uses desc, n.word
          limit ${COMPLETIONS}`),
  ]);
  const nearRows = rowsOf<{ word: string; uses: number }>(near);
  return {
    begunUses: Number(rowsOf<{ uses: number }>(begun)[0]?.uses ?? 0),
    near: nearRows.map((row) => row.word),
    nearUses: nearRows.reduce((sum, row) => sum + Number(row.uses), 0),
  };
}

/** Sorts after every character a word may hold: a prefix's range ends at the prefix followed by it. */
const LAST_CHARACTER = '\u{10FFFF}';

/** The words folded as the index folds them (`catalogue_fold`: lower case, accents removed). */
export async function foldWords(db: Db, words: string[]): Promise<string[]> {
  const rows = rowsOf<{ folded: string }>(
    await db.execute(
      sql`select catalogue_fold(t.word) as folded from (values ${sql.join(
        words.map((word, i) => sql`(${i}::int, ${word}::text)`),
        sql`, `,
      )}) as t(i, word) order by t.i`,
    ),
  );
  return rows.map((row) => row.folded);
}

/** A LIKE pattern matching what begins with `prefix` (its own `%`, `_` and `\` escaped). */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** For each word, the words within two edits among its nearest by trigrams: nearest first, then most used. */
async function twoEditsFrom(db: Db, words: string[], dictionary: Dictionary): Promise<Map<string, string[]>> {
  const { usable, uses } = counted(dictionary);
  const rows = rowsOf<{ typed: string; word: string }>(
    await db.execute(sql`
      select t.word as typed, c.word from (values ${sql.join(
        words.map((word) => sql`(${word}::text)`),
        sql`, `,
      )}) as t(word),
      lateral (
        select n.word, levenshtein(n.word, t.word) as edits, n.uses from (
          select ${searchWords.word}, ${uses} as uses from ${searchWords} where ${usable}
          order by ${searchWords.word} <-> t.word limit ${CANDIDATES}
        ) as n
        where char_length(n.word) between char_length(t.word) - 2 and char_length(t.word) + 2
          and levenshtein_less_equal(n.word, t.word, 2) <= 2
        order by edits, n.uses desc, n.word
        limit ${CORRECTIONS_PER_WORD}
      ) as c
      order by t.word, c.edits, c.uses desc, c.word`),
  );
  const corrections = new Map<string, string[]>();
  for (const row of rows) corrections.set(row.typed, [...(corrections.get(row.typed) ?? []), row.word]);
  return corrections;
}
