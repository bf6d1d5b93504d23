/**
 * Reads of one row by key made in one turn of the event loop run as one statement (`rowLoader`), and
 * each caller still gets exactly what a read of its own would have: its row (an object of its own), nothing
 * for a key without one, or the statement's error.
 */
import { describe, expect, it } from 'vitest';
import { type ReadMany, rowLoader } from '../src/db/row-loader.js';

interface Row {
  id: number;
  name: string;
}

/** A table of rows by id, recording the keys of every statement it runs. */
function table(ids: number[]) {
  const statements: number[][] = [];
  const readMany = async (keys: number[]) => {
    statements.push(keys);
    // Rows come back in the database's order, not the keys'.
    return ids.filter((id) => keys.includes(id)).map((id) => ({ id, name: `row ${id}` }));
  };
  return { statements, readMany };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** One read by key through a loader of `readMany`. */
function reader(readMany: ReadMany<number, Row>, maxBatchSize?: number) {
  const loader = rowLoader<number, Row>(readMany, (row) => row.id, maxBatchSize);
  return (id: number) => loader.load(id);
}

describe('rowLoader', () => {
  it('runs the reads of one turn as one statement of their distinct keys, and answers each its own row', async () => {
    const { statements, readMany } = table([1, 2, 3, 4]);
    const read = reader(readMany);
    const answers = await Promise.all([read(3), read(1), read(3), read(9)]);
    expect(statements).toEqual([[3, 1, 9]]);
    expect(answers).toEqual([{ id: 3, name: 'row 3' }, { id: 1, name: 'row 1' }, { id: 3, name: 'row 3' }, undefined]);
    // Callers add to the rows they get: two reads of one key never share an object.
    expect(answers[0]).not.toBe(answers[2]);
  });

  it('runs reads of different turns as statements of their own', async () => {
    const { statements, readMany } = table([1, 2]);
    const read = reader(readMany);
    const first = read(1);
    await turn();
    const second = read(2);
    expect(await Promise.all([first, second])).toEqual([
      { id: 1, name: 'row 1' },
      { id: 2, name: 'row 2' },
    ]);
    expect(statements).toEqual([[1], [2]]);
  });

  it('splits a turn of more keys than a statement carries', async () => {
    const { statements, readMany } = table([1, 2, 3, 4, 5]);
    const read = reader(readMany, 2);
    const answers = await Promise.all([1, 2, 3, 4, 5].map((id) => read(id)));
    expect(answers.map((row) => row?.id)).toEqual([1, 2, 3, 4, 5]);
    expect(statements).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('fails every read of a statement that fails, with its error, and reads again afterwards', async () => {
    let fail = true;
    const outage = new Error('the database is unreachable');
    const read = reader(async (keys) => {
      if (fail) throw outage;
      return keys.map((id) => ({ id, name: `row ${id}` }));
    });
    const answers = await Promise.allSettled([read(1), read(2), read(1)]);
    expect(answers).toEqual([
      { status: 'rejected', reason: outage },
      { status: 'rejected', reason: outage },
      { status: 'rejected', reason: outage },
    ]);
    fail = false;
    expect(await read(2)).toEqual({ id: 2, name: 'row 2' });
  });

  it('fails the reads, not the process, when the statement throws before it starts', async () => {
    const read = reader(() => {
      throw new TypeError('takes whole numbers only');
    });
    await expect(read(1)).rejects.toThrow('takes whole numbers only');
  });
});
