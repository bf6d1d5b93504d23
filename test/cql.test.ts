/**
 * The CQL parser (src/protocols/sru/cql.ts), unit-tested from the grammar of the CQL 1.2 specification:
 * bare terms and index-relation-term clauses, symbolic and named relations, modifiers, booleans
 * left-associative and of one precedence, parentheses, prefix assignments, sortby, quoted strings with their
 * escapes, and what is not CQL.
 */
import { describe, expect, it } from 'vitest';
import { type CqlNode, CqlSyntaxError, CqlTooManyBooleans, parseCql } from '../src/protocols/sru/cql.js';

/** A tree written compactly: a clause as `index relation term`, a boolean as `(left op right)`. */
function show(node: CqlNode): string {
  if (node.type === 'clause') {
    const modifiers = node.relationModifiers.map((m) => `/${m.name}${m.comparitor ?? ''}${m.value ?? ''}`).join('');
    return `${node.index} ${node.relation}${modifiers} [${node.term}]`;
  }
  const modifiers = node.modifiers.map((m) => `/${m.name}${m.comparitor ?? ''}${m.value ?? ''}`).join('');
  return `(${show(node.left)} ${node.operator}${modifiers} ${show(node.right)})`;
}

const parsed = (text: string) => show(parseCql(text).root);

describe('CQL', () => {
  it('a bare term is cql.serverChoice = term; a quoted one keeps its spaces', () => {
    expect(parsed('cat')).toBe('cql.serverChoice = [cat]');
    expect(parsed('"fish and chips"')).toBe('cql.serverChoice = [fish and chips]');
    expect(parsed('"and"')).toBe('cql.serverChoice = [and]');
  });

  it('index, relation and term, with each comparitor symbol and named relations of any case', () => {
    for (const relation of ['=', '==', '<', '>', '<=', '>=', '<>']) {
      expect(parsed(`dc.date${relation}1990`)).toBe(`dc.date ${relation} [1990]`);
      expect(parsed(`dc.date ${relation} 1990`)).toBe(`dc.date ${relation} [1990]`);
    }
    expect(parsed('dc.title any "fish frog"')).toBe('dc.title any [fish frog]');
    expect(parsed('dc.title ALL fish')).toBe('dc.title all [fish]');
    expect(parsed('dc.title adj "a b"')).toBe('dc.title adj [a b]');
    expect(parsed('dc.title within x')).toBe('dc.title within [x]');
  });

  it('relation and boolean modifiers, with and without values', () => {
    expect(parsed('dc.title =/stem/relevant fish')).toBe('dc.title =/stem/relevant [fish]');
    expect(parsed('dc.title any/rel.algorithm=cori fish')).toBe('dc.title any/rel.algorithm=cori [fish]');
    expect(parsed('a prox/unit=word/distance<3 b')).toBe(
      '(cql.serverChoice = [a] prox/unit=word/distance<3 cql.serverChoice = [b])',
    );
  });

  it('booleans are left-associative, of one precedence, case-insensitive; parentheses group', () => {
    expect(parsed('a and b or c')).toBe(
      '((cql.serverChoice = [a] and cql.serverChoice = [b]) or cql.serverChoice = [c])',
    );
    expect(parsed('a OR b AND c')).toBe(
      '((cql.serverChoice = [a] or cql.serverChoice = [b]) and cql.serverChoice = [c])',
    );
    expect(parsed('a not (b or dc.title = c)')).toBe(
      '(cql.serverChoice = [a] not (cql.serverChoice = [b] or dc.title = [c]))',
    );
    expect(parsed('((a))')).toBe('cql.serverChoice = [a]');
  });

  it('prefix assignments, at the start and inside parentheses', () => {
    const query = parseCql('>dc="info:srw/cql-context-set/1/dc-v1.1" dc.title = x and (>"http://ex.org/" y)');
    expect(query.prefixes).toEqual([
      { prefix: 'dc', uri: 'info:srw/cql-context-set/1/dc-v1.1' },
      { uri: 'http://ex.org/' },
    ]);
    expect(show(query.root)).toBe('(dc.title = [x] and cql.serverChoice = [y])');
  });

  it('sortby with its keys and their modifiers', () => {
    const query = parseCql('dc.title = fish sortby dc.date/sort.descending dc.title');
    expect(show(query.root)).toBe('dc.title = [fish]');
    expect(query.sortKeys).toEqual([
      { index: 'dc.date', modifiers: [{ name: 'sort.descending' }] },
      { index: 'dc.title', modifiers: [] },
    ]);
    expect(parseCql('fish').sortKeys).toEqual([]);
  });

  it('quoted strings: \\" is a quote; other escapes are kept, for the masks they protect', () => {
    expect(parsed('"say \\"hi\\""')).toBe('cql.serverChoice = [say "hi"]');
    expect(parsed('"a\\*b"')).toBe('cql.serverChoice = [a\\*b]');
    expect(parsed('dc.title = "<b>&amp;"')).toBe('dc.title = [<b>&amp;]');
  });

  it('bounds what it takes: 32 levels of parentheses, 64 booleans', () => {
    expect(parsed(`${'('.repeat(32)}a${')'.repeat(32)}`)).toBe('cql.serverChoice = [a]');
    expect(parseCql(Array.from({ length: 65 }, (_, i) => `w${i}`).join(' or ')).root.type).toBe('boolean');
    expect(() => parseCql(Array.from({ length: 66 }, (_, i) => `w${i}`).join(' or '))).toThrow(CqlTooManyBooleans);
  });

  it('what is not CQL is a syntax error that says where', () => {
    for (const text of [
      '',
      '   ',
      '(a',
      'a)',
      'a and',
      'dc.title =',
      '"open',
      'a b',
      'dc.title = = x',
      '=x',
      'a sortby',
      'a and/ b',
      '>dc= x',
    ]) {
      expect(() => parseCql(text), text).toThrow(CqlSyntaxError);
    }
    expect(() => parseCql(`${'('.repeat(33)}a${')'.repeat(33)}`)).toThrow(CqlSyntaxError);
    expect(() => parseCql('(a')).toThrow('expected ")", found the end of the query');
    expect(() => parseCql('a b')).toThrow('found "b" at 3');
  });
});
