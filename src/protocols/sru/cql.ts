/**
 * @module CQL, the Contextual Query Language (version 1.2, as the Library of Congress specifies it and SRU 2.0
 * takes it), parsed into a tree by recursive descent. The grammar, from the specification:
 *
 *     sortedQuery      ::= prefixAssignment sortedQuery | scopedClause ['sortby' sortSpec]
 *     cqlQuery         ::= prefixAssignment cqlQuery | scopedClause
 *     prefixAssignment ::= '>' prefix '=' uri | '>' uri
 *     scopedClause     ::= scopedClause booleanGroup searchClause | searchClause
 *     booleanGroup     ::= boolean [modifierList]
 *     boolean          ::= 'and' | 'or' | 'not' | 'prox'
 *     searchClause     ::= '(' cqlQuery ')' | index relation searchTerm | searchTerm
 *     relation         ::= comparitor [modifierList]
 *     comparitor       ::= '=' | '>' | '<' | '>=' | '<=' | '<>' | '==' | identifier
 *     modifierList     ::= modifier+
 *     modifier         ::= '/' modifierName [comparitorSymbol modifierValue]
 *     sortSpec         ::= (index modifierList?)+
 *     term             ::= identifier | 'and' | 'or' | 'not' | 'prox' | 'sortby'
 *     identifier       ::= a run of characters but whitespace ( ) = < > " /, or a "quoted string" (\" inside)
 *
 * Booleans are left-associative and of one precedence; keywords are case-insensitive. No database, no SRU:
 * what the tree means is for the caller.
 */

/** A modifier of a relation or boolean: `/name`, or `/name<comparitor>value`. */
export interface CqlModifier {
  name: string;
  comparitor?: string;
  value?: string;
}

/** A search clause: index, relation and term (a bare term is `cql.serverChoice = term`). */
export interface CqlClause {
  type: 'clause';
  index: string;
  relation: string;
  relationModifiers: CqlModifier[];
  /** The term, its escapes kept (`\"`, `\*`): masking characters are told from escaped ones by the caller. */
  term: string;
}

export interface CqlBoolean {
  type: 'boolean';
  /** `and`, `or`, `not` or `prox`, lower case. */
  operator: string;
  modifiers: CqlModifier[];
  left: CqlNode;
  right: CqlNode;
}

export type CqlNode = CqlClause | CqlBoolean;

export interface CqlSortKey {
  index: string;
  modifiers: CqlModifier[];
}

export interface CqlQuery {
  root: CqlNode;
  /** The context sets the query names (`>dc="…"`), in order. */
  prefixes: { prefix?: string; uri: string }[];
  /** `sortby`'s keys; empty without one. */
  sortKeys: CqlSortKey[];
}

/** A query that is not CQL: where and why. */
export class CqlSyntaxError extends Error {
  override name = 'CqlSyntaxError';
}

/** A query of more booleans than `MAX_BOOLEANS`: CQL, but more than a server need take. */
export class CqlTooManyBooleans extends Error {
  override name = 'CqlTooManyBooleans';
}

/** The most booleans a query may join (every one a condition of the SQL it becomes). */
export const MAX_BOOLEANS = 64;
/** The deepest parentheses may nest: a bound on the parser's recursion, far beyond any person's query. */
const MAX_DEPTH = 32;

export const SERVER_CHOICE = 'cql.serverChoice';

type Token =
  | { kind: 'symbol'; value: string; at: number }
  | { kind: 'word'; value: string; quoted: boolean; at: number }
  | { kind: 'end'; at: number };

const COMPARITOR_SYMBOLS = new Set(['=', '==', '<', '>', '<=', '>=', '<>']);
const BOOLEANS = new Set(['and', 'or', 'not', 'prox']);
/** What ends an unquoted word: whitespace and the characters of the grammar. */
const WORD_END = /[\s()=<>"/]/u;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (/\s/u.test(char)) {
      i++;
      continue;
    }
    const at = i;
    if (char === '(' || char === ')' || char === '/') {
      tokens.push({ kind: 'symbol', value: char, at });
      i++;
    } else if (char === '<' || char === '>' || char === '=') {
      const two = text.slice(i, i + 2);
      const value = two === '<=' || two === '>=' || two === '<>' || two === '==' ? two : char;
      tokens.push({ kind: 'symbol', value, at });
      i += value.length;
    } else if (char === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= text.length) throw new CqlSyntaxError(`a quoted string opened at ${at + 1} is not closed`);
        const c = text[i] as string;
        if (c === '\\' && i + 1 < text.length) {
          // Kept with its backslash: an escaped `*` or `?` is a character, not a mask.
          value += text[i + 1] === '"' ? '"' : c + (text[i + 1] as string);
          i += 2;
        } else if (c === '"') {
          i++;
          break;
        } else {
          value += c;
          i++;
        }
      }
      tokens.push({ kind: 'word', value, quoted: true, at });
    } else {
      let value = '';
      while (i < text.length && !WORD_END.test(text[i] as string)) value += text[i++];
      tokens.push({ kind: 'word', value, quoted: false, at });
    }
  }
  tokens.push({ kind: 'end', at: text.length });
  return tokens;
}

/** Parses a CQL query; throws `CqlSyntaxError` for one that is not CQL. */
export function parseCql(text: string): CqlQuery {
  if (text.trim() === '') throw new CqlSyntaxError('the query is empty');
  return new Parser(tokenize(text)).sortedQuery();
}

class Parser {
  #i = 0;
  #depth = 0;
  #booleans = 0;
  readonly #prefixes: { prefix?: string; uri: string }[] = [];

  constructor(private readonly tokens: Token[]) {}

  get #next(): Token {
    return this.tokens[this.#i] as Token;
  }

  #peek(offset: number): Token {
    return this.tokens[Math.min(this.#i + offset, this.tokens.length - 1)] as Token;
  }

  #take(): Token {
    const token = this.#next;
    if (token.kind !== 'end') this.#i++;
    return token;
  }

  #isSymbol(value: string, token = this.#next): boolean {
    return token.kind === 'symbol' && token.value === value;
  }

  #isKeyword(token: Token, words: Set<string>): boolean {
    return token.kind === 'word' && !token.quoted && words.has(token.value.toLowerCase());
  }

  #fail(expected: string): never {
    const token = this.#next;
    const found = token.kind === 'end' ? 'the end of the query' : `"${token.value}" at ${token.at + 1}`;
    throw new CqlSyntaxError(`expected ${expected}, found ${found}`);
  }

  #term(what: string): string {
    const token = this.#next;
    if (token.kind !== 'word') this.#fail(what);
    this.#take();
    return token.value;
  }

  sortedQuery(): CqlQuery {
    const root = this.#cqlQuery();
    const sortKeys: CqlSortKey[] = [];
    if (this.#isKeyword(this.#next, new Set(['sortby']))) {
      this.#take();
      do {
        sortKeys.push({ index: this.#term('an index to sort by'), modifiers: this.#modifiers() });
      } while (this.#next.kind === 'word');
    }
    if (this.#next.kind !== 'end') this.#fail('a boolean (and, or, not, prox) or the end of the query');
    return { root, prefixes: this.#prefixes, sortKeys };
  }

  #cqlQuery(): CqlNode {
    while (this.#isSymbol('>')) {
      this.#take();
      const first = this.#term('a prefix or a context set\u2019s URI');
      if (this.#isSymbol('=')) {
        this.#take();
        this.#prefixes.push({ prefix: first, uri: this.#term('a context set\u2019s URI') });
      } else {
        this.#prefixes.push({ uri: first });
      }
    }
    return this.#scopedClause();
  }

  #scopedClause(): CqlNode {
    let left = this.#searchClause();
    while (this.#isKeyword(this.#next, BOOLEANS)) {
      const operator = (this.#take() as { value: string }).value.toLowerCase();
      if (++this.#booleans > MAX_BOOLEANS) throw new CqlTooManyBooleans(`more than ${MAX_BOOLEANS} booleans`);
      const modifiers = this.#modifiers();
      const right = this.#searchClause();
      left = { type: 'boolean', operator, modifiers, left, right };
    }
    return left;
  }

  #searchClause(): CqlNode {
    if (this.#isSymbol('(')) {
      this.#take();
      if (++this.#depth > MAX_DEPTH) throw new CqlSyntaxError(`parentheses nested deeper than ${MAX_DEPTH}`);
      const inner = this.#cqlQuery();
      this.#depth--;
      if (!this.#isSymbol(')')) this.#fail('")"');
      this.#take();
      return inner;
    }
    const first = this.#term('a search term, an index or "("');
    if (this.#startsRelation()) {
      const token = this.#take() as Exclude<Token, { kind: 'end' }>;
      // A named relation (`any`, `ADJ`) is a keyword, of any case; a symbol is itself.
      const relation = token.kind === 'symbol' ? token.value : token.value.toLowerCase();
      const relationModifiers = this.#modifiers();
      const term = this.#term('a search term');
      return { type: 'clause', index: first, relation, relationModifiers, term };
    }
    return { type: 'clause', index: SERVER_CHOICE, relation: '=', relationModifiers: [], term: first };
  }

  /**
   * Whether a relation follows the word just read (which is then an index): a comparitor symbol, or a named
   * one, an unquoted word that is no boolean, followed by a term or a modifier.
   */
  #startsRelation(): boolean {
    const next = this.#next;
    if (next.kind === 'symbol') return COMPARITOR_SYMBOLS.has(next.value);
    if (next.kind !== 'word' || next.quoted || BOOLEANS.has(next.value.toLowerCase())) return false;
    if (next.value.toLowerCase() === 'sortby') return false;
    const after = this.#peek(1);
    return after.kind === 'word' || this.#isSymbol('/', after);
  }

  #modifiers(): CqlModifier[] {
    const modifiers: CqlModifier[] = [];
    while (this.#isSymbol('/')) {
      this.#take();
      const name = this.#term('a modifier\u2019s name');
      const next = this.#next;
      if (next.kind === 'symbol' && COMPARITOR_SYMBOLS.has(next.value)) {
        this.#take();
        modifiers.push({ name, comparitor: next.value, value: this.#term('a modifier\u2019s value') });
      } else {
        modifiers.push({ name });
      }
    }
    return modifiers;
  }
}
