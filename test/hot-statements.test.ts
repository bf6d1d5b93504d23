/**
 * Rows of the hot statements come back from the driver as arrays of values and are keyed by the
 * selection's names, by a function written once per selection (`keyedRows`).
 */
import { describe, expect, it } from 'vitest';
import { keyedRows } from '../src/db/hot-statements.js';

describe('keyedRows', () => {
  it('keys each row by the columns, in order, and keeps every value as it came', () => {
    const columns = ['id', 'title', 'due_at', 'hasLoans'];
    const rows = keyedRows(
      [
        [1, 'A', null, false],
        [2, 'B', '2026-01-01', true],
      ],
      columns,
    );
    expect(rows).toEqual([
      { id: 1, title: 'A', due_at: null, hasLoans: false },
      { id: 2, title: 'B', due_at: '2026-01-01', hasLoans: true },
    ]);
    expect(Object.keys(rows[0] as object)).toEqual(columns);
    expect(keyedRows([], columns)).toEqual([]);
  });

  it('takes any name as a key: quotes, backslashes, and __proto__ as an own member, not the prototype', () => {
    const columns = ['say "hi"', 'back\\slash', '__proto__', 'constructor'];
    const [row] = keyedRows<Record<string, unknown>>([[1, 2, { polluted: true }, 4]], columns);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row as object)).toEqual(columns);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual({ polluted: true });
    expect((row as Record<string, unknown>)['say "hi"']).toBe(1);
    expect((row as Record<string, unknown>)['back\\slash']).toBe(2);
    expect((row as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keys rows of another selection by that selection, though one was keyed before', () => {
    keyedRows([[1]], ['id']);
    expect(keyedRows([[1, 'x']], ['id', 'name'])).toEqual([{ id: 1, name: 'x' }]);
  });
});
