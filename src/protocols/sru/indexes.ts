/**
 * @module The CQL indexes the catalogue is searched by, their relations, and the translation of a parsed CQL
 * query into a `BookQuery` (what each condition matches is `db/queries/book-query.ts`'s). Explain publishes
 * the same table. Whatever the query asks that is not here is a diagnostic: an index (16), a context set
 * (15), a relation (19), a modifier (20, 46), a boolean (37), a mask (28), an empty term (27), a year that is
 * not one (36), sorting (80).
 */
import type { BookQuery, WordField, WordMatch } from '../../domain/book-query.js';
import { isbn13Of } from '../../domain/identifiers.js';
import type { CqlClause, CqlNode, CqlQuery } from './cql.js';
import { SruDiagnostic } from './diagnostics.js';

/** The context sets whose indexes are served, by their usual prefix. */
export const CONTEXT_SETS = {
  cql: 'info:srw/cql-context-set/1/cql-v1.2',
  dc: 'info:srw/cql-context-set/1/dc-v1.1',
  bath: 'http://zing.z3950.org/cql/bath/2.0/',
} as const;

export type ContextSet = keyof typeof CONTEXT_SETS;

/** An index as explain lists it. */
export interface CqlIndex {
  set: ContextSet;
  name: string;
  title: string;
  /** The relations it takes, as CQL writes them. */
  relations: readonly string[];
}

const WORD_RELATIONS = ['=', '==', 'exact', 'all', 'any', 'adj'] as const;

export const CQL_INDEXES: readonly CqlIndex[] = [
  {
    set: 'cql',
    name: 'serverChoice',
    title:
      'Words of a title or an author\u2019s name (with =, the catalogue\u2019s search: typos forgiven, by relevance)',
    relations: WORD_RELATIONS,
  },
  { set: 'cql', name: 'allRecords', title: 'Every book (cql.allRecords = 1)', relations: ['='] },
  { set: 'dc', name: 'title', title: 'Title', relations: WORD_RELATIONS },
  { set: 'dc', name: 'creator', title: 'Author', relations: WORD_RELATIONS },
  { set: 'dc', name: 'date', title: 'Year of publication', relations: ['=', '==', '<>', '<', '>', '<=', '>='] },
  {
    set: 'bath',
    name: 'isbn',
    title: 'ISBN (10 or 13 digits, hyphens allowed)',
    relations: ['=', '==', 'exact', '<>'],
  },
];

/** The query as a `BookQuery`; throws `SruDiagnostic` for what it asks that the catalogue does not serve. */
export function bookQueryOf(query: CqlQuery): BookQuery {
  if (query.sortKeys.length > 0) throw new SruDiagnostic(80, query.sortKeys[0]?.index);
  const prefixes = new Map<string, ContextSet>();
  for (const { prefix, uri } of query.prefixes) {
    const set = (Object.keys(CONTEXT_SETS) as ContextSet[]).find((name) => CONTEXT_SETS[name] === uri);
    if (!set) throw new SruDiagnostic(15, uri);
    if (prefix !== undefined) prefixes.set(prefix.toLowerCase(), set);
  }
  return nodeQuery(query.root, prefixes);
}

function nodeQuery(node: CqlNode, prefixes: Map<string, ContextSet>): BookQuery {
  if (node.type === 'clause') return clauseQuery(node, prefixes);
  if (node.modifiers.length > 0) throw new SruDiagnostic(46, node.modifiers[0]?.name);
  if (node.operator !== 'and' && node.operator !== 'or' && node.operator !== 'not') {
    throw new SruDiagnostic(37, node.operator);
  }
  return { kind: node.operator, left: nodeQuery(node.left, prefixes), right: nodeQuery(node.right, prefixes) };
}

/** The index a clause names: `set.name`, or a bare name of one of the served sets (`title` is `dc.title`). */
function indexOf(name: string, prefixes: Map<string, ContextSet>): CqlIndex {
  const dot = name.lastIndexOf('.');
  const bare = name.slice(dot + 1).toLowerCase();
  const prefix = dot < 0 ? undefined : name.slice(0, dot).toLowerCase();
  // `srw` is the cql set's name before CQL 1.1.
  const set = prefix === undefined ? undefined : (prefixes.get(prefix) ?? (prefix === 'srw' ? 'cql' : prefix));
  const index = CQL_INDEXES.find((i) => i.name.toLowerCase() === bare && (set === undefined || i.set === set));
  if (!index) throw new SruDiagnostic(16, name);
  return index;
}

function clauseQuery(clause: CqlClause, prefixes: Map<string, ContextSet>): BookQuery {
  const index = indexOf(clause.index, prefixes);
  const relation = clause.relation;
  if (!index.relations.includes(relation)) throw new SruDiagnostic(19, relation);
  if (clause.relationModifiers.length > 0) throw new SruDiagnostic(20, clause.relationModifiers[0]?.name);
  const term = clause.term;
  switch (`${index.set}.${index.name}`) {
    case 'cql.allRecords':
      return { kind: 'all' };
    case 'dc.date':
      return yearQuery(relation, term);
    case 'bath.isbn': {
      const isbn: BookQuery = { kind: 'isbn', isbn: isbn13Of(unescaped(unmasked(term))) };
      return relation === '<>' ? { kind: 'not', left: { kind: 'all' }, right: isbn } : isbn;
    }
    default:
      return wordsQuery(index, relation, term);
  }
}

function yearQuery(relation: string, term: string): BookQuery {
  const text = unescaped(term).trim();
  if (!/^-?[0-9]{1,4}$/.test(text)) throw new SruDiagnostic(36, term);
  const comparison = relation === '==' ? '=' : (relation as '=' | '<>' | '<' | '>' | '<=' | '>=');
  return { kind: 'year', comparison, year: Number(text) };
}

const FIELDS: Record<string, WordField> = { serverChoice: 'any', title: 'title', creator: 'creator' };

/** A letter or digit run, as the catalogue's search splits words, and whether a `*` ends it. */
const WORD = /([\p{L}\p{N}]+)(\*?)/gu;

function wordsQuery(index: CqlIndex, relation: string, term: string): BookQuery {
  const field = FIELDS[index.name] as WordField;
  if (unescaped(term).trim() === '') throw new SruDiagnostic(27, index.name);
  if (relation === '==' || relation === 'exact') {
    return { kind: 'words', field, match: 'exact', text: unescaped(unmasked(term)), words: [] };
  }
  const masked = maskedWords(term);
  const match: WordMatch =
    relation === 'any' ? 'any' : relation === 'adj' ? 'phrase' : relation === 'all' ? 'all' : 'relevance';
  // `=` is the catalogue's search on its words; on a title or a name, every word (CQL leaves `=` to the server).
  const chosen: WordMatch = match === 'relevance' && field !== 'any' ? 'all' : match;
  const text = unescaped(term.replace(/(?<!\\)\*/g, ' '));
  return { kind: 'words', field, match: chosen, text, words: masked };
}

/**
 * The words of a term, each marked a prefix where an unescaped `*` ends it (right truncation, CQL's masking);
 * any other mask (a `?`, a `*` that does not end a word) is diagnostic 28.
 */
function maskedWords(term: string): { word: string; prefix: boolean }[] {
  const plain = term.replace(/\\./g, ' ');
  if (/\?/.test(plain) || /\*(?=[\p{L}\p{N}])/u.test(plain) || /(^|[^\p{L}\p{N}*])\*/u.test(plain)) {
    throw new SruDiagnostic(28, term);
  }
  return [...plain.matchAll(WORD)].map((m) => ({ word: (m[1] as string).toLowerCase(), prefix: m[2] === '*' }));
}

/** A term where a mask would be diagnostic 28: `==` and ISBNs take no masks. */
function unmasked(term: string): string {
  if (/(?<!\\)[*?]/.test(term)) throw new SruDiagnostic(28, term);
  return term;
}

/** A term's characters, its escapes (`\"`, `\*`, `\\`) read. */
function unescaped(term: string): string {
  return term.replace(/\\(.)/g, '$1');
}
