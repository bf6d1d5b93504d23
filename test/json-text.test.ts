/**
 * The JSON format writes strings and a resource's state itself (`json-text.ts`): whatever a state holds,
 * the text must be, byte for byte, what `JSON.stringify` writes.
 */
import { describe, expect, it } from 'vitest';
import { quoted, stateMembers } from '../src/formats/json-text.js';

/** What the format must write for `state`: `JSON.stringify`'s text without its braces. */
const expected = (state: object) => JSON.stringify(state).slice(1, -1);

class WithToJson {
  id = 1;
  toJSON() {
    return { shown: 'instead' };
  }
}

describe('stateMembers', () => {
  const states: Record<string, object> = {
    'a book': { id: 7, title: 'A "quoted" \\ title\u2028é', publication_year: -300, available: true, due_at: null },
    'numbers JSON writes its own way': {
      zero: -0,
      nan: Number.NaN,
      inf: Number.POSITIVE_INFINITY,
      big: 1e21,
      small: 1e-7,
      frac: 0.1,
    },
    'control characters and lone surrogates': { a: '\u0000\u001f\n\t', b: '\ud800', c: '\udc00x', d: '\ud83d\ude00' },
    'undefined members, left out wherever they are': { a: undefined, b: 1, c: undefined, d: 'x', e: undefined },
    'only undefined members': { a: undefined },
    'no members': {},
    'false, zero and the empty string': { a: false, b: 0, c: '' },
    'values only JSON.stringify writes': {
      list: [1, undefined, 'x'],
      when: new Date(0),
      nested: { a: undefined, b: [] },
    },
    'functions and symbols, left out': { f: () => 1, s: Symbol('s'), kept: 2 },
    'keys like indexes, which come first': { b: 1, 2: 'two', a: 3, 1: 'one' },
    'keys JSON escapes': { 'say "hi"': 1, 'back\\slash': 2, 'line\nbreak': 3, '\u2028': 4 },
    'a __proto__ of its own': JSON.parse('{"__proto__": {"x": 1}, "y": 2}'),
    'a toJSON of its own': { id: 1, toJSON: () => ({ other: true }) },
    'a toJSON of its class': new WithToJson(),
  };
  for (const [name, state] of Object.entries(states)) {
    it(`writes ${name} as JSON.stringify does`, () => {
      expect(stateMembers(state as Record<string, unknown>)).toBe(expected(state));
    });
  }

  it('writes states of alternating and changing keys, each by its own keys', () => {
    const a = { id: 1, title: 'a' };
    const b = { id: 2, title: 'b', hold_status: 'ready' };
    const c = { title: 'c', id: 3 };
    for (const state of [a, b, a, c, b, c, a]) expect(stateMembers(state)).toBe(expected(state));
    // A value of another type under the same keys.
    expect(stateMembers({ id: '1', title: null })).toBe(expected({ id: '1', title: null }));
    expect(stateMembers({ id: { n: 1 }, title: 'x' })).toBe(expected({ id: { n: 1 }, title: 'x' }));
  });

  it('tells apart lists of keys that join alike, a key holding NUL', () => {
    const joined = { 'a\u0000b': 1 };
    const apart = { a: 2, b: 3 };
    for (const state of [apart, joined, apart, joined]) expect(stateMembers(state)).toBe(expected(state));
  });

  it('stays exact beyond the writers it keeps', () => {
    for (let i = 0; i < 600; i++) {
      const state = { [`key${i}`]: i, shared: `v${i}` };
      expect(stateMembers(state)).toBe(expected(state));
    }
  });

  it('reads a getter once, as JSON.stringify does', () => {
    let reads = 0;
    const state = {
      get counted() {
        reads += 1;
        return reads;
      },
    };
    expect(stateMembers(state)).toBe('"counted":1');
    expect(reads).toBe(1);
  });
});

describe('quoted', () => {
  it('writes strings as JSON.stringify does', () => {
    for (const value of [
      '',
      'plain',
      '/books?page=1&per_page=20',
      'a"b',
      'a\\b',
      '\u0007',
      '\ud800',
      '\ud83d\ude00',
      'é\u2028',
    ]) {
      expect(quoted(value)).toBe(JSON.stringify(value));
    }
  });
});
